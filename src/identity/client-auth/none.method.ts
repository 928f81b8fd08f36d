import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedClient } from '../clients/client';
import { ClientStore } from '../clients/client.store';
import { singleParameter } from '../../protocol/form';
import { clientAuthFailed } from './client-auth-failure';
import { MAX_CLIENT_ID_LENGTH, type ClientAuthMethod, type ClientAuthRequest } from './client-auth-method';

/**
 * `none` (RFC 7591 §2): a public client names itself with `client_id` alone. A confidential client
 * sending only its id gets the same 401 as a request without credentials.
 */
@Injectable()
export class NoneMethod implements ClientAuthMethod {
  methodName(): 'none' {
    return 'none';
  }

  constructor(@Inject(ClientStore) private readonly clients: Pick<ClientStore, 'find'>) {}

  carries(request: ClientAuthRequest): boolean {
    const { body } = request;
    const has = (name: string) => Object.prototype.hasOwnProperty.call(body, name);
    return has('client_id') && !has('client_secret') && !has('client_assertion') && !has('client_assertion_type') && request.authorization === undefined;
  }

  claimedClientId(request: ClientAuthRequest): string | undefined {
    return singleParameter(request.body, 'client_id') || undefined;
  }

  async authenticate(request: ClientAuthRequest): Promise<AuthenticatedClient> {
    const clientId = this.claimedClientId(request);
    const client = clientId && clientId.length <= MAX_CLIENT_ID_LENGTH ? await this.clients.find(clientId) : undefined;
    if (!client || !client.enabled || client.public !== true) throw clientAuthFailed('client authentication is required', true);
    return { client, method: 'none' };
  }
}
