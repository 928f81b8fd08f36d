import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomBytes } from 'node:crypto';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { SigningKeyStore } from '../keys/signing-key.store';
import { acrOf } from '../../protocol/authentication-context';
import { formatScope } from '../../protocol/scope';
import { ResourceStore } from '../../identity/resources/resource.store';
import { TokenRecipients } from '../../identity/signals/token-recipients';
import type { ActorClaim, MayActClaim } from './access-token';
import { signJws } from './jws';

export interface AccessTokenRequest {
  readonly clientId: string;
  readonly lifetimeSeconds: number;
  readonly scopes: readonly string[];
  /** RFC 8707: the `aud`, exactly; by default the API resources of the scopes. */
  readonly audience?: readonly string[];
  /** How the client registered itself, if it did: the default `aud` names only resources opened to such clients (docs/agents.md). */
  readonly selfRegistered?: string;
  readonly subject?: string;
  readonly authTime?: number;
  readonly authenticationMethods?: readonly string[];
  /** The subject token's `acr`, for a delegated token; otherwise the one its `amr` implies (docs/passkeys.md). */
  readonly acr?: string;
  readonly actor?: ActorClaim;
  /** RFC 8693 §4.4, on user tokens only: who may act for the user. */
  readonly mayAct?: MayActClaim;
  /** Claims a grant adds; they never replace the registered claims below. */
  readonly extraClaims?: Readonly<Record<string, unknown>>;
  /** The token expires no later than this (epoch seconds), e.g. its subject token's `exp`. */
  readonly expiresAtMost?: number;
  /** RFC 9449 §6.1: binds the token to a DPoP key (`cnf.jkt`). */
  readonly confirmation?: { readonly jkt: string };
}

export interface IssuedAccessToken {
  readonly token: string;
  /** RFC 9449 §5: `DPoP` for a token bound to a proof key. */
  readonly tokenType: 'Bearer' | 'DPoP';
  readonly jwtId: string;
  readonly expiresIn: number;
  readonly scopes: readonly string[];
}

/** RFC 7519 §4.1, RFC 9068 §2.2, RFC 8693 §4, RFC 7800 §3.1 and the OpenID Connect ones no grant's claims may set. */
const REGISTERED_CLAIMS: ReadonlySet<string> = new Set([
  'iss',
  'sub',
  'aud',
  'client_id',
  'scope',
  'iat',
  'nbf',
  'exp',
  'jti',
  'auth_time',
  'amr',
  'acr',
  'act',
  'may_act',
  'cnf',
  'azp',
  'sid',
  'nonce',
  'at_hash',
]);

/** Signs RFC 9068 access tokens (docs/tokens.md#access-tokens) with the active key, parsed once. */
@Injectable()
export class AccessTokenIssuer {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeyStore,
    private readonly resources: ResourceStore,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
    @Inject(TokenRecipients) private readonly recipients: Pick<TokenRecipients, 'record'>,
  ) {}

  async issue(request: AccessTokenRequest): Promise<IssuedAccessToken> {
    const now = Math.floor(Date.now() / 1000);
    const exp = Math.min(now + request.lifetimeSeconds, request.expiresAtMost ?? Number.MAX_SAFE_INTEGER);
    const audiences =
      request.audience !== undefined && request.audience.length > 0
        ? request.audience
        : this.resources.catalog.audiencesFor(request.scopes, request.selfRegistered !== undefined);
    const jwtId = randomBytes(16).toString('base64url');
    const claims: Record<string, unknown> = {
      iss: this.config.issuer,
      aud: audiences.length === 0 ? `${this.config.issuer}/resources` : audiences.length === 1 ? audiences[0] : audiences,
      client_id: request.clientId,
      scope: formatScope(request.scopes),
      // RFC 9068 §2.2: a token that represents only the client has the client_id as its subject.
      sub: request.subject ?? request.clientId,
      iat: now,
      // No `nbf`: verifiers without clock tolerance would refuse a token from a clock a second ahead.
      exp,
      jti: jwtId,
    };
    // Optional claims are added only when present: deleting undefined ones would slow the object down.
    // `auth_time` and `amr` are what tell a user token from a client token, whose `sub` is its client_id.
    if (request.subject !== undefined) {
      if (request.authTime !== undefined) claims.auth_time = request.authTime;
      if (request.authenticationMethods !== undefined) claims.amr = request.authenticationMethods;
      // RFC 9068 §2.2.1: how the user signed in, so an API can ask for a step-up (RFC 9470).
      const acr = request.acr ?? acrOf(request.authenticationMethods);
      if (acr !== undefined) claims.acr = acr;
      if (request.mayAct !== undefined) claims.may_act = request.mayAct;
    }
    if (request.actor !== undefined) claims.act = request.actor;
    if (request.confirmation !== undefined) claims.cnf = { jkt: request.confirmation.jkt };
    for (const [name, value] of Object.entries(request.extraClaims ?? {})) {
      if (!REGISTERED_CLAIMS.has(name) && value !== undefined) claims[name] = value;
    }
    const token = await signJws(this.jwt, claims, this.keys.signingKey());
    // docs/signals.md#privacy-who-hears-of-whom: a receiver hears of the users whose tokens named it.
    if (request.subject !== undefined) {
      const recording = this.recipients.record(request.subject, this.namedClients(request.clientId, audiences));
      if (recording !== undefined) await recording;
    }
    const tokenType = request.confirmation === undefined ? 'Bearer' : 'DPoP';
    return { token, tokenType, jwtId, expiresIn: Math.max(exp - now, 0), scopes: request.scopes };
  }

  /** The token's client, and the clients its `aud` names: by client_id, or as the client serving a resource (docs/tokens.md#addressed-to-a-client). */
  private namedClients(clientId: string, audiences: readonly string[]): string[] {
    const named = [clientId];
    for (const audience of audiences) {
      const api = this.resources.catalog.apiResource(audience);
      const client = api === undefined ? audience : api.servingClientId;
      if (client !== undefined && !named.includes(client)) named.push(client);
    }
    return named;
  }
}
