import { readActorClaim } from '../tokens/access-token/access-token';
import type { OAuthErrorCode } from '../protocol/oauth-error';
import { continuedGrant, type ContinuedGrant } from './grant-continuation';
import type { GrantError, GrantSuccess } from './grant-result';

/**
 * The error codes a grant may answer at the token endpoint: RFC 6749 §5.2, RFC 8693 §2.2.2 and
 * RFC 8707 §2 (`invalid_target`), RFC 8628 §3.5, RFC 9449 §5 and §8.
 */
export const TOKEN_ENDPOINT_ERRORS: ReadonlySet<OAuthErrorCode> = new Set<OAuthErrorCode>([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'authorization_pending',
  'slow_down',
  'access_denied',
  'expired_token',
  'invalid_dpop_proof',
  'use_dpop_nonce',
]);

export const MAX_ERROR_DESCRIPTION_LENGTH = 1000;

/** A grant's result, checked: an error, a success, or a success that continues what Tollgate began. */
export type CheckedGrantResult =
  | { readonly kind: 'error'; readonly error: GrantError }
  | { readonly kind: 'success'; readonly success: GrantSuccess }
  | { readonly kind: 'continued'; readonly success: GrantSuccess; readonly continued: ContinuedGrant };

/** Why a result is not a well-formed success or error; the token endpoint answers it `server_error`. */
export class MalformedGrantResult extends Error {}

/**
 * Checks, at run time, what a grant validator resolved to (docs/grants.md#the-grant-result): the
 * types only promise it. `signsIn` is the validator's: only a sign-in grant may name `authTime`.
 */
export function checkGrantResult(value: unknown, signsIn: boolean): CheckedGrantResult {
  if (!isRecord(value)) throw new MalformedGrantResult(`the result is ${describe(value)}, not a success or an error`);
  if (value.kind === 'error') return { kind: 'error', error: checkError(value) };
  if (value.kind !== undefined && value.kind !== 'success' && value.kind !== 'access_token') {
    throw new MalformedGrantResult(`the result kind ${String(value.kind).slice(0, 50)} is neither success nor error`);
  }
  const success = value as GrantSuccess;
  optional(
    value,
    'subject',
    (subject) => typeof subject === 'string' && subject.length > 0 && subject.length <= 255,
    'a non-empty string of at most 255 characters',
  );
  optional(value, 'scopes', isStringArray, 'a list of strings');
  optional(value, 'authenticationMethods', (methods) => isStringArray(methods) && methods.length > 0, 'a non-empty list of strings');
  optional(value, 'audience', (audience) => isStringArray(audience) && audience.length > 0, 'a non-empty list of strings');
  optional(value, 'claims', isRecord, 'an object');
  optional(value, 'responseParameters', isRecord, 'an object');
  optional(value, 'delegation', isDelegation, 'a delegation (actor, expiresAtMost)');
  optional(value, 'issuedTokenType', (type) => typeof type === 'string' && type.length > 0 && type.length <= 1000, 'a token type URI');
  optional(value, 'authTime', (authTime) => signsIn && isEpochSeconds(authTime), 'epoch seconds, of a grant that signsIn');
  if (value.continuation === undefined) return { kind: 'success', success };
  const continued = continuedGrant(value.continuation);
  if (!continued) throw new MalformedGrantResult('continuation was not handed out by Tollgate');
  return { kind: 'continued', success, continued };
}

/** An `OAuthError` a grant threw, or an error it returned: a code of the token endpoint, a bounded description. */
export function checkErrorAnswer(code: unknown, description: unknown): void {
  if (typeof code !== 'string' || !TOKEN_ENDPOINT_ERRORS.has(code as OAuthErrorCode)) {
    throw new MalformedGrantResult(`the error code ${String(code).slice(0, 50)} is not one of the token endpoint`);
  }
  if (description !== undefined && (typeof description !== 'string' || description.length > MAX_ERROR_DESCRIPTION_LENGTH)) {
    throw new MalformedGrantResult(`the error description is not a string of at most ${MAX_ERROR_DESCRIPTION_LENGTH} characters`);
  }
}

function checkError(value: Record<string, unknown>): GrantError {
  checkErrorAnswer(value.error, value.description);
  return value as unknown as GrantError;
}

function optional(value: Record<string, unknown>, member: string, valid: (member: unknown) => boolean, expected: string): void {
  if (value[member] !== undefined && !valid(value[member])) throw new MalformedGrantResult(`${member} is not ${expected}`);
}

function isDelegation(value: unknown): boolean {
  if (!isRecord(value) || readActorClaim(value.actor) === undefined || !isEpochSeconds(value.expiresAtMost)) return false;
  return (
    (value.authTime === undefined || isEpochSeconds(value.authTime)) &&
    ['acr', 'subjectIssuer', 'issuedTokenType'].every((member) => value[member] === undefined || typeof value[member] === 'string')
  );
}

function isEpochSeconds(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : `a ${typeof value}`;
}
