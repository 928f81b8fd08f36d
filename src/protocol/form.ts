import { OAuthError } from './oauth-error';

/** A parsed form body: Fastify gives a repeated key as an array. */
export type FormBody = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Parameters after the duplicate check: each a single string unless the grant lets it repeat. */
export type RequestParameters = Readonly<Record<string, string | readonly string[]>>;

export const MAX_PARAMETER_LENGTH = 16 * 1024;
/** The HTTP body limit (docs/endpoints.md#request-bodies): what bounds a parameter allowed past MAX_PARAMETER_LENGTH. */
export const MAX_BODY_BYTES = 64 * 1024;

export function isFormBody(body: unknown): body is FormBody {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body);
}

/** RFC 6749 Appendix A: no parameter's syntax admits %x00 (and PostgreSQL text cannot hold it). */
export function hasNulCharacter(body: FormBody): boolean {
  for (const value of Object.values(body)) {
    if (typeof value === 'string' ? value.includes('\0') : value?.some((item) => item.includes('\0'))) return true;
  }
  return false;
}

/** Reads a parameter that may appear once (RFC 6749 §3.2: parameters must not repeat). */
export function singleParameter(body: FormBody, name: string, maxLength = MAX_PARAMETER_LENGTH): string | undefined {
  const value = Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw OAuthError.invalidRequest(`parameter ${name} must not be repeated`);
  if (value.length > maxLength) throw OAuthError.invalidRequest(`parameter ${name} is too long`);
  return value;
}

/**
 * Keeps only the named parameters, each checked for repetition unless listed as repeatable and for
 * length (MAX_PARAMETER_LENGTH unless `longer` allows more); everything else is dropped so a grant
 * never sees what it did not declare (docs/endpoints.md#token-endpoint).
 */
export function pickParameters(
  body: FormBody,
  names: Iterable<string>,
  repeatable: ReadonlySet<string> = new Set(),
  longer: ReadonlyMap<string, number> = new Map(),
): RequestParameters {
  const picked: Record<string, string | readonly string[]> = Object.create(null);
  for (const name of names) {
    if (repeatable.has(name)) {
      const value = Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
      if (value === undefined) continue;
      const values = typeof value === 'string' ? [value] : value;
      if (values.some((item) => item.length > MAX_PARAMETER_LENGTH)) {
        throw OAuthError.invalidRequest(`parameter ${name} is too long`);
      }
      picked[name] = values;
    } else {
      const value = singleParameter(body, name, longer.get(name));
      if (value !== undefined) picked[name] = value;
    }
  }
  return picked;
}
