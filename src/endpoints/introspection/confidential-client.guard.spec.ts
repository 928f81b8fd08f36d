import type { ExecutionContext } from '@nestjs/common';
import type { AuthenticatedClient, ClientAuthMethodName } from '../../identity/clients/client';
import { ConfidentialClientGuard } from './confidential-client.guard';

function authenticatedAs(method: ClientAuthMethodName): ExecutionContext {
  const authenticatedClient = { client: { clientId: 'c' }, method } as AuthenticatedClient;
  const http = { getRequest: () => ({ authenticatedClient }) };
  return { switchToHttp: () => http } as Pick<ExecutionContext, 'switchToHttp'> as ExecutionContext;
}

describe('ConfidentialClientGuard', () => {
  it('refuses a public client as invalid_client', () => {
    expect(() => new ConfidentialClientGuard().canActivate(authenticatedAs('none'))).toThrow(
      expect.objectContaining({ code: 'invalid_client', status: 401, description: 'a public client may not use introspection' }),
    );
  });

  it('admits a client that authenticated', () => {
    expect(new ConfidentialClientGuard().canActivate(authenticatedAs('client_secret_basic'))).toBe(true);
  });
});
