import { decodeJwt, type JWTPayload } from 'jose';
import { singleParameter, type FormBody } from '../oauth/form';
import { OAuthError } from '../oauth/oauth-error';
import { JWT_BEARER_ASSERTION, JWT_SPIFFE_ASSERTION } from './client-auth-method';

export interface ClientAssertion {
  readonly type: string;
  readonly jwt: string;
  /** Claims read without verification: only to choose the method and the keys, never to trust. */
  readonly unverified: JWTPayload | undefined;
}

/** `client_assertion` with its `client_assertion_type` (RFC 7521 §4.2), or undefined when neither is sent. */
export function readClientAssertion(body: FormBody): ClientAssertion | undefined {
  const type = singleParameter(body, 'client_assertion_type');
  const jwt = singleParameter(body, 'client_assertion');
  if (type === undefined && jwt === undefined) return undefined;
  if (type === undefined || jwt === undefined || type === '' || jwt === '') {
    throw OAuthError.invalidRequest('client_assertion and client_assertion_type must be sent together');
  }
  return { type, jwt, unverified: decodeUnverified(jwt) };
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

/** The values an assertion's `aud` may contain: our issuer, the token endpoint, or the endpoint it is sent to. */
export function acceptedAudiences(issuer: string, endpointUrl: string): string[] {
  return [...new Set([issuer, `${issuer}/connect/token`, endpointUrl])];
}
