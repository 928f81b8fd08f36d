import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_BODY_BYTES, isFormBody } from './form';
import { readParameters, type ParameterRefusal } from './form-parameters';
import { OAuthError } from './oauth-error';

/** The parts of an HTTP request a bearer token may travel in. The query string is not one of them. */
export interface BearerTokenCarrier {
  readonly method: string;
  readonly headers: { readonly authorization?: string; readonly 'content-type'?: string };
  readonly body?: unknown;
}

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';
// RFC 7230 §3.2.6 token (an auth-scheme), RFC 6750 §2.1 b64token, RFC 7235 §2.1 token68 and auth-param.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const CREDENTIALS = new RegExp(`^(${TOKEN})(?: +(.*))?$`, 's');
// The usual header, read without running CREDENTIALS over the whole token: what follows is what CREDENTIALS would capture.
const BEARER_SCHEME = /^bearer +/i;
const DPOP_SCHEME = /^dpop +/i;
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const AUTH_PARAM = `${TOKEN}[ \\t]*=[ \\t]*(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*")`;
const AUTH_PARAMS = new RegExp(`^${AUTH_PARAM}(?:[ \\t]*,[ \\t]*${AUTH_PARAM})*$`);

/**
 * The form of a userinfo POST (RFC 6750 §2.2). The token may be as long as the body: a token too long
 * to be ours is `invalid_token` from the validator, like one in the header.
 */
export class BearerTokenForm {
  @MaxLength(MAX_BODY_BYTES)
  @IsNotEmpty({ message: 'parameter access_token is empty' })
  @IsString()
  @IsOptional()
  access_token?: string;
}

const MALFORMED: ParameterRefusal = { error: 'invalid_request' };

/**
 * Finds the access token of a protected-resource request: in `Authorization: Bearer` (RFC 6750 §2.1,
 * scheme case-insensitive) or, for a form-encoded POST, in the `access_token` body parameter
 * (§2.2). The query string (§2.3) is never read, so a token there counts as none (docs/endpoints.md#userinfo).
 * Returns undefined when there is no token; a malformed header or a token sent in two places is
 * `invalid_request` (§3.1).
 */
export function extractBearerToken(request: BearerTokenCarrier): string | undefined {
  return extractAccessToken(request)?.token;
}

/** An access token as presented: `Bearer` (RFC 6750) or `DPoP` (RFC 9449 §7.1, only in the Authorization header). */
export interface PresentedAccessToken {
  readonly scheme: 'Bearer' | 'DPoP';
  readonly token: string;
}

/** `extractBearerToken`, also reading `Authorization: DPoP <token>`, and saying which scheme carried the token. */
export function extractAccessToken(request: BearerTokenCarrier): PresentedAccessToken | undefined {
  const fromHeader = accessTokenFromHeader(request.headers.authorization);
  const fromBody = bearerTokenFromBody(request);
  if (fromHeader !== undefined && fromBody !== undefined) throw malformed('the access token was sent in more than one place');
  return fromHeader ?? (fromBody === undefined ? undefined : { scheme: 'Bearer', token: fromBody });
}

/** The token of an `Authorization: Bearer` header; undefined when absent or another well-formed scheme. */
export function bearerTokenFromHeader(header: string | undefined): string | undefined {
  const presented = accessTokenFromHeader(header);
  return presented?.scheme === 'Bearer' ? presented.token : undefined;
}

function accessTokenFromHeader(header: string | undefined): PresentedAccessToken | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  const bearer = BEARER_SCHEME.exec(trimmed);
  if (bearer) return { scheme: 'Bearer', token: requireB64Token(trimmed.slice(bearer[0].length)) };
  const dpop = DPOP_SCHEME.exec(trimmed);
  if (dpop) return { scheme: 'DPoP', token: requireB64Token(trimmed.slice(dpop[0].length), 'DPoP') };
  const match = CREDENTIALS.exec(trimmed);
  if (!match) throw malformed('the Authorization header is malformed');
  const [, scheme, credentials] = match;
  if (scheme.toLowerCase() === 'dpop') throw malformed('the DPoP authorization header carries no token');
  if (scheme.toLowerCase() !== 'bearer') {
    if (credentials === undefined || B64TOKEN.test(credentials) || AUTH_PARAMS.test(credentials)) return undefined;
    throw malformed('the Authorization header is malformed');
  }
  if (credentials === undefined || credentials.length === 0) throw malformed('the Bearer authorization header carries no token');
  return { scheme: 'Bearer', token: requireB64Token(credentials) };
}

function requireB64Token(credentials: string, scheme = 'Bearer'): string {
  if (!B64TOKEN.test(credentials)) throw malformed(`the ${scheme} authorization header is malformed`);
  return credentials;
}

/** RFC 6750 §2.2: only a POST whose body is `application/x-www-form-urlencoded` carries the token. */
function bearerTokenFromBody({ method, headers, body }: BearerTokenCarrier): string | undefined {
  if (method !== 'POST' || mediaType(headers['content-type']) !== FORM_MEDIA_TYPE || !isFormBody(body)) return undefined;
  return readParameters(BearerTokenForm, body, MALFORMED).access_token;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function malformed(description: string): OAuthError {
  return OAuthError.invalidRequest(description);
}
