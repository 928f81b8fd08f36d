import { Column, CreateDateColumn, Entity, OneToMany, PrimaryColumn, type Relation } from 'typeorm';
import { ClientSecretEntity } from './client-secret.entity';
import { ClientWorkloadIdentityEntity } from './client-workload-identity.entity';

@Entity('clients')
export class ClientEntity {
  @PrimaryColumn({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** The display name users see on the consent page (OpenID Connect Dynamic Client Registration §2). */
  @Column({ name: 'client_name', type: 'text', nullable: true })
  clientName!: string | null;

  @Column({ name: 'allowed_grant_types', type: 'text', array: true, default: () => "'{}'" })
  allowedGrantTypes!: string[];

  @Column({ name: 'allowed_scopes', type: 'text', array: true, default: () => "'{}'" })
  allowedScopes!: string[];

  @Column({ name: 'access_token_lifetime', type: 'integer', default: 3600 })
  accessTokenLifetime!: number;

  @Column({ name: 'refresh_token_lifetime', type: 'integer', default: 2592000 })
  refreshTokenLifetime!: number;

  @Column({ name: 'may_act_client_id', type: 'text', nullable: true })
  mayActClientId!: string | null;

  @Column({ name: 'transaction_tokens', type: 'boolean', default: false })
  transactionTokens!: boolean;
  @Column({ name: 'public_client', type: 'boolean', default: false })
  publicClient!: boolean;

  @Column({ name: 'redirect_uris', type: 'text', array: true, default: () => "'{}'" })
  redirectUris!: string[];

  @Column({ name: 'post_logout_redirect_uris', type: 'text', array: true, default: () => "'{}'" })
  postLogoutRedirectUris!: string[];

  @Column({ name: 'require_consent', type: 'boolean', default: false })
  requireConsent!: boolean;

  @Column({ name: 'require_pushed_authorization_requests', type: 'boolean', default: false })
  requirePushedAuthorizationRequests!: boolean;

  @Column({ name: 'require_dpop', type: 'boolean', default: false })
  requireDpop!: boolean;

  @Column({ name: 'require_phr', type: 'boolean', default: false })
  requirePhr!: boolean;

  /** OpenID Connect Back-Channel Logout 1.0 §2.2: where logout tokens are sent (docs/signals.md). */
  @Column({ name: 'backchannel_logout_uri', type: 'text', nullable: true })
  backchannelLogoutUri!: string | null;

  @Column({ name: 'backchannel_logout_session_required', type: 'boolean', default: false })
  backchannelLogoutSessionRequired!: boolean;

  /** private_key_jwt: its JWK Set, or where to fetch it. */
  @Column({ type: 'jsonb', nullable: true })
  jwks!: unknown;

  @Column({ name: 'jwks_uri', type: 'text', nullable: true })
  jwksUri!: string | null;

  /** `metadata_document` or `dynamic` for clients that registered themselves (docs/agents.md). */
  @Column({ name: 'self_registered', type: 'text', nullable: true })
  selfRegistered!: 'metadata_document' | 'dynamic' | null;

  /** RFC 7591 §3.2.1: a dynamically registered client's metadata, as the registration response gives it. */
  @Column({ type: 'jsonb', nullable: true })
  registration!: unknown;

  /** RFC 7592 §3: SHA-256 of the registration access token, base64. */
  @Column({ name: 'registration_access_token_hash', type: 'text', nullable: true })
  registrationAccessTokenHash!: string | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @OneToMany(() => ClientSecretEntity, (secret) => secret.client)
  secrets!: ClientSecretEntity[];

  @OneToMany(() => ClientWorkloadIdentityEntity, (identity) => identity.client)
  workloadIdentities!: Relation<ClientWorkloadIdentityEntity>[];
}
