import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Inventory, keySummaries, type ClientView, type ResourceView, type TrustedIssuerView, type UserView } from '../inventory';

// Columns named one by one: client_secrets.value_hash and users.password_hash are never selected.
const CLIENTS = `
  SELECT c.client_id, c.client_name, c.enabled, c.allowed_grant_types, c.allowed_scopes, c.redirect_uris, c.post_logout_redirect_uris,
         c.require_consent, c.access_token_lifetime, c.refresh_token_lifetime, c.may_act_client_id, c.transaction_tokens, c.public_client,
         c.require_pushed_authorization_requests, c.require_dpop, c.require_phr, c.jwks, c.jwks_uri, c.backchannel_logout_uri, c.backchannel_logout_session_required, c.created_at,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('issuer', w.issuer, 'subject', w.subject) ORDER BY w.issuer, w.subject), '[]')
            FROM client_workload_identities w WHERE w.client_id = c.client_id) AS workload_identities,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'description', s.description, 'expires_at', s.expires_at, 'created_at', s.created_at)
                   ORDER BY s.created_at, s.id), '[]')
            FROM client_secrets s WHERE s.client_id = c.client_id) AS secrets
    FROM clients c`;

const RESOURCES = `
  SELECT name, 'api' AS kind, enabled, scopes, resource_uri, serving_client_id, open_to_self_registered, '{}'::text[] AS claims FROM api_resources
  UNION ALL
  SELECT name, 'identity' AS kind, enabled, ARRAY[name], NULL, NULL, true, claim_types FROM identity_resources`;

// Trusted issuers of every role, and the partner authorization servers grants are issued for (docs/chaining.md).
const ISSUERS = `
  SELECT * FROM (
    SELECT t.issuer, t.role, t.kind, t.enabled, t.description, t.jwks, t.jwks_uri, t.subject_audience, t.subject_user_claim,
           t.subject_identity_scopes, t.created_at,
           ARRAY(SELECT s.client_id FROM client_subject_issuers s WHERE s.issuer = t.issuer
                 UNION SELECT g.client_id FROM client_authorization_grant_issuers g WHERE g.issuer = t.issuer ORDER BY 1) AS trusted_by,
           a.user_claim AS grant_user_claim, a.identity_scopes AS grant_identity_scopes, a.max_lifetime_seconds AS grant_max_lifetime,
           NULL::text[] AS partner_resources, NULL::jsonb AS partner_clients
      FROM trusted_issuers t LEFT JOIN authorization_grant_issuers a USING (issuer)
    UNION ALL
    SELECT p.issuer, 'partner', '-', p.enabled, p.description, NULL::jsonb, NULL, NULL, NULL, '{}'::text[], p.created_at, '{}'::text[],
           NULL, NULL, NULL, p.resources,
           (SELECT jsonb_object_agg(c.client_id, c.partner_client_id) FROM partner_authorization_server_clients c WHERE c.issuer = p.issuer)
      FROM partner_authorization_servers p
  ) t`;

// A user's passkeys are counted, never read: their public keys are not shown either (docs/passkeys.md).
const USERS =
  'SELECT subject_id, username, enabled, roles, claims, updated_at, (SELECT count(*) FROM passkeys WHERE passkeys.subject_id = users.subject_id)::int AS passkeys FROM users';

type Row = Record<string, unknown>;

/**
 * Inventory by SQL on the service's data source: one query per answer, read-only. Raw SQL on purpose:
 * a report that joins and aggregates the tables of several modules (array subqueries, jsonb) in one
 * statement each, which neither those modules' entity repositories nor TypeORM's find options express.
 */
@Injectable()
export class SqlInventory extends Inventory {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async clients(): Promise<ClientView[]> {
    return (await this.query(`${CLIENTS} ORDER BY c.client_id`)).map(toClient);
  }

  async client(clientId: string): Promise<ClientView | undefined> {
    return (await this.query(`${CLIENTS} WHERE c.client_id = $1`, [clientId])).map(toClient)[0];
  }

  async resources(): Promise<ResourceView[]> {
    return (await this.query(`${RESOURCES} ORDER BY kind, name`)).map(toResource);
  }

  async resource(name: string): Promise<ResourceView | undefined> {
    return (await this.query(`SELECT * FROM (${RESOURCES}) r WHERE name = $1 ORDER BY kind`, [name])).map(toResource)[0];
  }

  async trustedIssuers(): Promise<TrustedIssuerView[]> {
    return (await this.query(`${ISSUERS} ORDER BY t.issuer, t.role = 'partner'`)).map(toIssuer);
  }

  async trustedIssuer(issuer: string): Promise<TrustedIssuerView | undefined> {
    // A partner may have the URL of a trusted issuer too (the other direction): the trusted issuer comes first.
    return (await this.query(`${ISSUERS} WHERE t.issuer = $1 ORDER BY t.role = 'partner'`, [issuer])).map(toIssuer)[0];
  }

  async users(): Promise<UserView[]> {
    return (await this.query(`${USERS} ORDER BY username`)).map(toUser);
  }

  async user(name: string): Promise<UserView | undefined> {
    return (await this.query(`${USERS} WHERE username = $1 OR subject_id = $1 ORDER BY username = $1 DESC LIMIT 1`, [name])).map(toUser)[0];
  }

  private query(sql: string, parameters: unknown[] = []): Promise<Row[]> {
    return this.dataSource.query(sql, parameters);
  }
}

function toClient(row: Row): ClientView {
  const workloadIdentities = row.workload_identities as ClientView['workloadIdentities'];
  const secrets = (row.secrets as Row[]).map((secret) => ({
    id: secret.id as string,
    description: (secret.description as string | null) ?? null,
    expiresAt: iso(secret.expires_at),
    createdAt: iso(secret.created_at) ?? '',
  }));
  return {
    clientId: row.client_id as string,
    clientName: (row.client_name as string | null) ?? null,
    enabled: row.enabled as boolean,
    authentication: row.public_client
      ? 'none'
      : row.jwks !== null || row.jwks_uri !== null
        ? 'private_key_jwt'
        : workloadIdentities.length > 0 && secrets.length === 0
          ? 'workload'
          : 'client_secret',
    grantTypes: row.allowed_grant_types as string[],
    scopes: row.allowed_scopes as string[],
    redirectUris: row.redirect_uris as string[],
    postLogoutRedirectUris: row.post_logout_redirect_uris as string[],
    requireConsent: row.require_consent as boolean,
    requirePushedAuthorizationRequests: row.require_pushed_authorization_requests as boolean,
    requireDpop: row.require_dpop as boolean,
    requirePhr: row.require_phr === true,
    accessTokenLifetimeSeconds: row.access_token_lifetime as number,
    refreshTokenLifetimeSeconds: row.refresh_token_lifetime as number,
    mayActClientId: (row.may_act_client_id as string | null) ?? null,
    transactionTokens: row.transaction_tokens as boolean,
    jwksUri: (row.jwks_uri as string | null) ?? null,
    jwks: keySummaries(row.jwks),
    workloadIdentities,
    backchannelLogoutUri: (row.backchannel_logout_uri as string | null) ?? null,
    backchannelLogoutSessionRequired: row.backchannel_logout_session_required === true,
    secrets,
    createdAt: iso(row.created_at) ?? '',
  };
}

function toResource(row: Row): ResourceView {
  return {
    name: row.name as string,
    kind: row.kind as ResourceView['kind'],
    enabled: row.enabled as boolean,
    scopes: row.scopes as string[],
    uri: (row.resource_uri as string | null) ?? null,
    servedBy: (row.serving_client_id as string | null) ?? null,
    openToSelfRegistered: row.open_to_self_registered === true,
    claims: row.claims as string[],
  };
}

function toIssuer(row: Row): TrustedIssuerView {
  return {
    issuer: row.issuer as string,
    role: row.role as TrustedIssuerView['role'],
    kind: row.kind as string,
    enabled: row.enabled as boolean,
    description: (row.description as string | null) ?? null,
    jwksUri: (row.jwks_uri as string | null) ?? null,
    jwks: keySummaries(row.jwks),
    subjectAudience: (row.subject_audience as string | null) ?? null,
    subjectUserClaim: (row.subject_user_claim as string | null) ?? null,
    subjectIdentityScopes: row.subject_identity_scopes as string[],
    trustedBy: row.trusted_by as string[],
    ...(row.role === 'authorization-grant' && row.grant_user_claim
      ? {
          authorizationGrant: {
            userClaim: row.grant_user_claim as string,
            identityScopes: row.grant_identity_scopes as string[],
            maxLifetimeSeconds: row.grant_max_lifetime as number,
          },
        }
      : {}),
    ...(row.role === 'partner'
      ? { partner: { resources: (row.partner_resources as string[] | null) ?? [], clientIds: (row.partner_clients as Record<string, string> | null) ?? {} } }
      : {}),
    createdAt: iso(row.created_at) ?? '',
  };
}

function toUser(row: Row): UserView {
  return {
    subjectId: row.subject_id as string,
    username: row.username as string,
    enabled: row.enabled as boolean,
    roles: strings(row.roles),
    claims: isObject(row.claims) ? row.claims : {},
    passkeys: Number(row.passkeys ?? 0),
    updatedAt: iso(row.updated_at) ?? '',
  };
}

/** timestamptz arrives as a Date, or as an ISO string from inside jsonb; `infinity` and garbage as null. */
function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value as string);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Stored rows are shown whatever they hold: a roles array may nest, hold NULLs or be no array at all. */
function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.flat(Infinity).filter((item): item is string => typeof item === 'string' && item !== '') : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
