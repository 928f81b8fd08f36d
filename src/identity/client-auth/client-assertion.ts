import { IsNotEmpty, MaxLength, ValidateIf } from 'class-validator';
import { decodeJwt, type JWTPayload } from 'jose';
import { readGrantParameters } from '../../protocol/grant-parameters';
import type { FormBody } from '../../protocol/form';
import { JWT_BEARER_ASSERTION, JWT_SPIFFE_ASSERTION } from './client-auth-method';

const TOGETHER = { message: 'client_assertion and client_assertion_type must be sent together' };
const eitherSent = (parameters: ClientAssertionParameters) => parameters.client_assertion !== undefined || parameters.client_assertion_type !== undefined;

/** RFC 7521 §4.2: both parameters or neither; malformed is `invalid_request`. */
export class ClientAssertionParameters {
  @IsNotEmpty(TOGETHER)
  @ValidateIf(eitherSent)
  client_assertion?: string;

  @MaxLength(256, { message: 'client_assertion_type is too long' })
  @IsNotEmpty(TOGETHER)
  @ValidateIf(eitherSent)
  client_assertion_type?: string;
}

export interface ClientAssertion {
  readonly type: string;
  readonly jwt: string;
  /** Claims read without verification: only to choose the method and the keys, never to trust. */
  readonly unverified: JWTPayload | undefined;
}

// Every client authentication method asks whether the body carries an assertion: read once per body.
const readAssertions = new WeakMap<FormBody, ClientAssertion | undefined>();

/** `client_assertion` with its `client_assertion_type` (RFC 7521 §4.2), or undefined when neither is sent. */
export function readClientAssertion(body: FormBody): ClientAssertion | undefined {
  // Neither parameter: nothing the DTO could refuse (the usual case, client secrets).
  if (!hasParameter(body, 'client_assertion') && !hasParameter(body, 'client_assertion_type')) return undefined;
  if (readAssertions.has(body)) return readAssertions.get(body);
  const { client_assertion: jwt, client_assertion_type: type } = readGrantParameters(ClientAssertionParameters, body, 'invalid_request');
  const assertion = type === undefined || jwt === undefined ? undefined : { type, jwt, unverified: decodeUnverified(jwt) };
  readAssertions.set(body, assertion);
  return assertion;
}

function hasParameter(body: FormBody, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, name);
}

function decodeUnverified(jwt: string): JWTPayload | undefined {
  try {
    return decodeJwt(jwt);
  } catch {
    return undefined;
  }
}

/**
 * Workload assertions are SPIFFE JWT-SVIDs (their own assertion type) and Kubernetes
 * service-account tokens (jwt-bearer, `sub` = `system:serviceaccount:…`, issued by the cluster):
 * a private_key_jwt assertion has `iss` = `sub` = the client_id instead (RFC 7523 §3).
 */
export function isWorkloadAssertion(assertion: ClientAssertion): boolean {
  if (assertion.type === JWT_SPIFFE_ASSERTION) return true;
  const { iss, sub } = assertion.unverified ?? {};
  return assertion.type === JWT_BEARER_ASSERTION && typeof sub === 'string' && sub.startsWith('system:serviceaccount:') && iss !== sub;
}

/**
 * The values a workload assertion's `aud` may contain (docs/workload-identity.md): our issuer, the
 * token endpoint, or the endpoint it is sent to.
 */
export function workloadAudiences(issuer: string, endpointUrl: string): string[] {
  return [...new Set([issuer, `${issuer}/connect/token`, endpointUrl])];
}

/**
 * draft-ietf-oauth-rfc7523bis: a private_key_jwt assertion's `aud` is the issuer identifier as its
 * sole value, a string or a one-element array. An assertion listing other audiences too could have
 * been made for another server and replayed here (the 2025 audience-injection disclosure).
 */
export function isSoleIssuerAudience(aud: unknown, issuer: string): boolean {
  const values: unknown[] = Array.isArray(aud) ? aud : [aud];
  return values.length === 1 && values[0] === issuer;
}
