import { DEVICE_CODE_GRANT_TYPE } from '../tokens/device-authorization/device-authorization';

/** The built-in grants that declare `publicClients` (built-in-grants.spec.ts keeps this list true). */
export const BUILT_IN_PUBLIC_CLIENT_GRANT_TYPES: readonly string[] = ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT_TYPE];

/** The built-in grants that do not: a public client can never use them. */
export const BUILT_IN_CONFIDENTIAL_GRANT_TYPES: readonly string[] = [
  'client_credentials',
  'password',
  'delegation',
  'urn:ietf:params:oauth:grant-type:token-exchange',
  // docs/chaining.md: src/grants/cross-domain/'s validator.
  'urn:ietf:params:oauth:grant-type:jwt-bearer',
];

/**
 * The grant types of `grantTypes` a public client may never use: the built-in ones without
 * `publicClients`. An extension grant's policy is its validator's, which the token endpoint reads.
 */
export function grantsRefusedToPublicClients(grantTypes: readonly string[]): string[] {
  return grantTypes.filter((grantType) => BUILT_IN_CONFIDENTIAL_GRANT_TYPES.includes(grantType));
}
