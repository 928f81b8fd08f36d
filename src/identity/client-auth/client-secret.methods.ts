import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedClient } from '../clients/client';
import { ClientSecretVerifier } from '../clients/client-secret.verifier';
import { ClientStore } from '../clients/client.store';
import type { ClientCredentials } from '../../protocol/basic-credentials';
import { clientAuthFailed } from './client-auth-failure';
import { MAX_CLIENT_ID_LENGTH, type ClientAuthMethod, type ClientAuthRequest } from './client-auth-method';
import { readClientCredentials } from './client-credentials.reader';

const MAX_SECRET_LENGTH = 1024;

type ClientLookup = Pick<ClientStore, 'find'>;

/** Shared by client_secret_basic and client_secret_post: the secret checked against the client's hashes. */
abstract class ClientSecretMethod implements ClientAuthMethod {
  protected abstract readonly name: 'client_secret_basic' | 'client_secret_post';
  private readonly verifier = new ClientSecretVerifier();
  // The authenticator asks for the claimed client_id before it verifies: the credentials are read once per request.
  private readonly read = new WeakMap<ClientAuthRequest, ClientCredentials | undefined>();

  constructor(private readonly clients: ClientLookup) {}

  abstract carries(request: ClientAuthRequest): boolean;

  methodName(): 'client_secret_basic' | 'client_secret_post' {
    return this.name;
  }

  claimedClientId(request: ClientAuthRequest): string | undefined {
    return this.credentials(request)?.clientId;
  }

  async authenticate(request: ClientAuthRequest): Promise<AuthenticatedClient> {
    const credentials = this.credentials(request);
    const basic = this.name === 'client_secret_basic';
    // RFC 7235 §3.1: a 401 names a scheme the client can use.
    if (!credentials) throw clientAuthFailed('client authentication is required', true);
    const { clientId, clientSecret } = credentials;
    if (clientId.length > MAX_CLIENT_ID_LENGTH || clientSecret.length > MAX_SECRET_LENGTH) throw clientAuthFailed(undefined, basic);
    const client = await this.clients.find(clientId);
    if (!client || !client.enabled || !this.verifier.verify(client, clientSecret)) throw clientAuthFailed(undefined, basic);
    return { client, method: this.name };
  }

  private credentials(request: ClientAuthRequest): ClientCredentials | undefined {
    if (this.read.has(request)) return this.read.get(request);
    const credentials = readClientCredentials(request.authorization, request.body);
    this.read.set(request, credentials);
    return credentials;
  }
}

/** RFC 6749 §2.3.1: id and secret in HTTP Basic, each form-urlencoded first. */
@Injectable()
export class ClientSecretBasicMethod extends ClientSecretMethod {
  protected readonly name = 'client_secret_basic';

  constructor(@Inject(ClientStore) clients: ClientLookup) {
    super(clients);
  }

  carries(request: ClientAuthRequest): boolean {
    return /^\s*Basic(\s|$)/i.test(request.authorization ?? '');
  }
}

/** RFC 6749 §2.3.1: `client_id` and `client_secret` in the body. */
@Injectable()
export class ClientSecretPostMethod extends ClientSecretMethod {
  protected readonly name = 'client_secret_post';

  constructor(@Inject(ClientStore) clients: ClientLookup) {
    super(clients);
  }

  carries(request: ClientAuthRequest): boolean {
    return Object.prototype.hasOwnProperty.call(request.body, 'client_secret');
  }
}
