import { Injectable } from '@nestjs/common';
import type { ClientCredentials } from '../oauth/basic-credentials';
import { OAuthError } from '../oauth/oauth-error';
import type { AuthenticatedClient } from './client';
import { ClientSecretVerifier } from './client-secret.verifier';
import { ClientStore } from './client.store';

const MAX_CLIENT_ID_LENGTH = 200;
const MAX_SECRET_LENGTH = 1024;

/** Authenticates a client by id and secret (docs/client-authentication.md). */
@Injectable()
export class ClientAuthenticator {
  private readonly verifier = new ClientSecretVerifier();

  constructor(private readonly clients: ClientStore) {}

  async authenticate(credentials: ClientCredentials | undefined): Promise<AuthenticatedClient> {
    // RFC 7235 §3.1: a 401 names a scheme the client can use.
    if (credentials === undefined) throw OAuthError.invalidClient('client authentication is required', { challenge: 'Basic' });
    const failed = () =>
      OAuthError.invalidClient('client authentication failed', {
        challenge: credentials.method === 'client_secret_basic' ? 'Basic' : undefined,
      });
    const { clientId, clientSecret } = credentials;
    if (clientId.length > MAX_CLIENT_ID_LENGTH || clientSecret.length > MAX_SECRET_LENGTH) throw failed();
    const client = await this.clients.find(clientId);
    if (!client || !client.enabled || !this.verifier.verify(client, clientSecret)) throw failed();
    return { client, method: credentials.method };
  }
}
