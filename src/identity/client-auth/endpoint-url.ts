import type { ClientAuthEndpoint } from './client-auth-method';

const PATHS: Record<ClientAuthEndpoint, string> = {
  token: '/connect/token',
  introspection: '/connect/introspect',
  revocation: '/connect/revocation',
  pushed_authorization: '/connect/par',
  device_authorization: '/connect/deviceauthorization',
};

/** The advertised URL of an endpoint that authenticates clients (docs/endpoints.md). */
export function endpointUrl(issuer: string, endpoint: ClientAuthEndpoint): string {
  return `${issuer}${PATHS[endpoint]}`;
}
