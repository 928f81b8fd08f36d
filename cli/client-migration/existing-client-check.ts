import { grantsRefusedToPublicClients } from '../../src/grants/public-client-grants';
import type { ClientView } from '../inventory/inventory';
import type { ClientMigrationRequest } from './client-migration-arguments';
import { alreadyExists } from './client-migration-source';

/**
 * What the database the service uses says about a request, before anything is written or a secret
 * printed: a client is created only when absent, changed only when present, and a change leaves it
 * usable (the same rules as when creating it).
 */
export function requestProblems(request: ClientMigrationRequest, current: ClientView | undefined): string[] {
  if (request.kind === 'create') return current ? [alreadyExists(request.clientId)] : [];
  if (!current)
    return [
      `Client "${request.clientId}" does not exist: create it with npm run client:migration -- --client-id ${request.clientId} --grant <type> --scope <scopes>`,
    ];
  if (request.kind !== 'change') return [];
  const { changes } = request;
  const grantTypes = changes.grantTypes ?? current.grantTypes;
  const redirectUris = changes.redirectUris ?? current.redirectUris;
  const problems: string[] = [];
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0)
    problems.push(`Client "${request.clientId}" would use authorization_code without a redirect URI: give --redirect-uri`);
  if (current.authentication === 'none') {
    const refused = grantsRefusedToPublicClients(grantTypes);
    if (refused.length > 0)
      problems.push(`Client "${request.clientId}" is public: it may not use ${refused.join(', ')}, grants that do not serve public clients`);
    if (changes.jwks || changes.jwksUri || changes.workload) problems.push(`Client "${request.clientId}" is public: it has no credential to change`);
  }
  return problems;
}
