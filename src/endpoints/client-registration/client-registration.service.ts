import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { agentsConfig } from '../../platform/config/config.slices';
import { hashClientSecret } from '../../identity/clients/client-secret.verifier';
import { bearerTokenFromHeader } from '../../protocol/bearer-token';
import { readJsonDocument } from '../../protocol/json-object';
import { OAuthError } from '../../protocol/oauth-error';
import { RegistrationThrottle } from '../../platform/rate-limit/registration.throttle';
import { ResourceStore } from '../../identity/resources/resource.store';
import { generateCredential, readRegistrationMetadata, registeredClientRecord, tokenMatches } from './client-registration';
import { InitialAccessTokenRepository, RegisteredClientRepository, type StoredRegistration } from './registered-client.repository';

/** What the registration endpoint was sent: the body as sent (UTF-8), its media type, the Authorization header. */
export interface RegistrationInput {
  readonly text: string | undefined;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
}

/** RFC 7591 §3.2.1 / RFC 7592 §3: the client information response. */
export type ClientInformation = Record<string, unknown>;

const MAX_METADATA_BYTES = 16 * 1024;
// RFC 7592 §2.2: what a client must not send back in an update.
const SERVER_FIELDS = ['registration_access_token', 'registration_client_uri', 'client_secret_expires_at', 'client_id_issued_at'];

/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592), under the rules of
 * self-registered clients (docs/agents.md): off, open, or with an operator's initial access token.
 */
@Injectable()
export class ClientRegistrationService {
  /** An http issuer (development) accepts http back-channel logout URIs on loopback hosts, as its other delivery URLs. */
  private readonly allowLoopbackHttp: boolean;

  constructor(
    @Inject(agentsConfig.KEY) private readonly config: ConfigType<typeof agentsConfig>,
    private readonly clients: RegisteredClientRepository,
    private readonly initialTokens: InitialAccessTokenRepository,
    private readonly resources: ResourceStore,
    private readonly throttle: RegistrationThrottle,
  ) {
    this.allowLoopbackHttp = new URL(config.issuer).protocol === 'http:';
  }

  async register(input: RegistrationInput, address: string): Promise<ClientInformation> {
    this.requireEnabled();
    await this.throttle.admit(address);
    if (this.config.dynamicRegistration === 'token') await this.requireInitialAccessToken(input.authorization);
    const metadata = readRegistrationMetadata(readJsonBody(input), this.allowLoopbackHttp);
    const clientId = `dyn-${generateCredential(18)}`;
    const record = registeredClientRecord(clientId, metadata, this.resources.catalog);
    const secret = metadata.tokenEndpointAuthMethod === 'client_secret_basic' ? generateCredential() : undefined;
    const registrationAccessToken = generateCredential();
    const issuedAt = await this.clients.create(record, {
      ...(secret === undefined ? {} : { secret: hashClientSecret(secret) }),
      registrationAccessToken: hashClientSecret(registrationAccessToken),
    });
    return {
      ...this.information({ clientId, registration: record.registration, issuedAt }, registrationAccessToken),
      // RFC 7591 §3.2.1: the secret is returned once, here; 0: it does not expire.
      ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    };
  }

  /** RFC 7592 §2.1. */
  async read(clientId: string, authorization: string | undefined): Promise<ClientInformation> {
    const { stored, token } = await this.authorize(clientId, authorization);
    return this.information(stored, token);
  }

  /** RFC 7592 §2.2: the metadata sent replaces what was registered; the authentication method stays. */
  async update(clientId: string, input: RegistrationInput): Promise<ClientInformation> {
    const { stored, token } = await this.authorize(clientId, input.authorization);
    const body = readJsonBody(input);
    if (body.client_id !== clientId) throw OAuthError.invalidClientMetadata('client_id must be the registered client_id');
    const sent = SERVER_FIELDS.find((name) => name in body);
    if (sent) throw OAuthError.invalidClientMetadata(`${sent} must not be sent in an update`);
    const method = stored.registration.token_endpoint_auth_method;
    const metadata = readRegistrationMetadata({ ...body, token_endpoint_auth_method: body.token_endpoint_auth_method ?? method }, this.allowLoopbackHttp);
    if (metadata.tokenEndpointAuthMethod !== method)
      throw OAuthError.invalidClientMetadata('token_endpoint_auth_method cannot be changed; register a new client');
    const record = registeredClientRecord(clientId, metadata, this.resources.catalog);
    await this.clients.update(record);
    return this.information({ ...stored, registration: record.registration }, token);
  }

  /** RFC 7592 §2.3: the client, its secrets, codes, tokens and consents are gone. */
  async delete(clientId: string, authorization: string | undefined): Promise<void> {
    await this.authorize(clientId, authorization);
    await this.clients.delete(clientId);
  }

  private information(stored: Pick<StoredRegistration, 'clientId' | 'registration' | 'issuedAt'>, registrationAccessToken: string): ClientInformation {
    return {
      client_id: stored.clientId,
      client_id_issued_at: Math.floor(stored.issuedAt.getTime() / 1000),
      ...stored.registration,
      // RFC 7592 §3: the token stays the same; only its hash is stored, so it is the one the client presented.
      registration_access_token: registrationAccessToken,
      registration_client_uri: `${this.config.issuer}/connect/register/${encodeURIComponent(stored.clientId)}`,
    };
  }

  /** RFC 7592 §2: the registration access token, compared in constant time; any mismatch is the same 401. */
  private async authorize(clientId: string, authorization: string | undefined): Promise<{ stored: StoredRegistration; token: string }> {
    this.requireEnabled();
    const token = bearerTokenFromHeader(authorization);
    if (token === undefined) throw OAuthError.missingBearerToken();
    const stored = clientId.length <= 200 ? await this.clients.find(clientId) : undefined;
    if (!stored || !tokenMatches(token, stored.registrationAccessTokenHash)) {
      throw OAuthError.invalidToken('the registration access token is not valid for this client');
    }
    return { stored, token };
  }

  private async requireInitialAccessToken(authorization: string | undefined): Promise<void> {
    const token = bearerTokenFromHeader(authorization);
    if (token === undefined) throw OAuthError.missingBearerToken();
    if (!(await this.initialTokens.isValid(hashClientSecret(token)))) throw OAuthError.invalidToken('the initial access token is not valid');
  }

  private requireEnabled(): void {
    if (this.config.dynamicRegistration === 'off') throw OAuthError.invalidRequest('Not found', { status: 404 });
  }
}

/**
 * RFC 7591 §3.1: a JSON object, bounded in size and depth, no member named twice (readJsonDocument).
 * Its charset, if given, was checked to be UTF-8 before it was parsed (json-body-text.ts).
 */
function readJsonBody({ text, contentType }: RegistrationInput): Record<string, unknown> {
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json' || text === undefined) throw OAuthError.invalidClientMetadata('the request body must be application/json');
  if (Buffer.byteLength(text) > MAX_METADATA_BYTES) throw OAuthError.invalidClientMetadata(`the client metadata must be at most ${MAX_METADATA_BYTES} bytes`);
  let body: unknown;
  try {
    body = readJsonDocument(text);
  } catch (error) {
    throw OAuthError.invalidClientMetadata(`the client metadata cannot be read: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw OAuthError.invalidClientMetadata('the client metadata must be a JSON object');
  return body as Record<string, unknown>;
}
