import { PUSH_DELIVERY } from './stream-request';

/**
 * SSF 1.0 §7.1 Transmitter Configuration Metadata (docs/signals.md#receivers): receivers manage
 * their stream with an OAuth 2.0 access token (`client_credentials`, scope `ssf`); every receiver gets
 * the events of every user whose tokens named it (`default_subjects` ALL, with no subject endpoints).
 */
export function ssfConfiguration(issuer: string): Record<string, unknown> {
  return {
    spec_version: '1_0',
    issuer,
    jwks_uri: `${issuer}/.well-known/openid-configuration/jwks`,
    delivery_methods_supported: [PUSH_DELIVERY],
    configuration_endpoint: `${issuer}/ssf/stream`,
    status_endpoint: `${issuer}/ssf/status`,
    verification_endpoint: `${issuer}/ssf/verify`,
    authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6749' }],
    default_subjects: 'ALL',
  };
}

/** SSF 1.0 §7.2: for an issuer with a path, the well-known segment goes between the host and the path. */
export function ssfConfigurationPath(issuer: string): string {
  const { pathname } = new URL(issuer);
  return pathname === '/' || pathname === '' ? '/.well-known/ssf-configuration' : `/.well-known/ssf-configuration${pathname}`;
}
