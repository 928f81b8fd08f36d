import { LRUCache } from 'lru-cache';
import { isCanonicalCompactJws } from '../../protocol/compact-jws';
import { parseJsonObject } from '../../protocol/json-object';
import { OAuthError } from '../../protocol/oauth-error';
import type { DpopNonces } from './dpop-nonce';
import { hasValidSignature } from '../../platform/jws/jws-signature';
import { keyOf, type DpopProofKey } from './dpop-proof-key';
import { accessTokenHash, normalizeHtu, type DpopProofRequest, type VerifiedDpopProof } from './dpop-proof';

export const MAX_PROOF_LENGTH = 8 * 1024;
/** RFC 9449 §11.1: how far a proof's `iat` may be from now, either way. */
export const PROOF_MAX_SKEW_SECONDS = 60;
const MAX_JTI_LENGTH = 256;
// A client sends the same header (typ, alg, jwk) with every proof: headers up to this length are kept once read.
const MAX_KEPT_HEADER_LENGTH = 2048;
// RFC 7517 §9.3, RFC 7518 §6: members only a private or symmetric key has.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** Remembers the `jti`s of used proofs on every instance; true the first time a key presents one. */
export interface DpopReplayGuard {
  firstUse(jkt: string, jti: string, expiresAt: Date): Promise<boolean>;
}

export interface DpopProofOptions {
  readonly algorithms: readonly string[];
  /** RFC 9449 §8: every proof must carry a nonce this service issued. */
  readonly requireNonce: boolean;
}

/**
 * Checks a DPoP proof (RFC 9449 §4.3): a compact JWS typed `dpop+jwt`, signed with an asymmetric
 * algorithm by the public key in its `jwk` header, for this request's method and URL (`htm`, `htu`),
 * issued within a minute of now, for the access token presented (`ath`), carrying a server nonce
 * when nonces are demanded, and never seen before (its `jti`, on any instance). Rejections are
 * `invalid_dpop_proof` (or `use_dpop_nonce`), status 400; resource endpoints turn them into 401s.
 */
export class DpopProofValidator {
  private readonly headers = new LRUCache<string, { readonly alg: string; readonly key: DpopProofKey }>({ max: 10_000 });

  constructor(
    private readonly options: DpopProofOptions,
    private readonly replays: DpopReplayGuard,
    private readonly nonces: DpopNonces,
    private readonly now: () => number = Date.now,
  ) {}

  async verify(request: DpopProofRequest & { readonly proof: string }): Promise<VerifiedDpopProof> {
    const now = Math.floor(this.now() / 1000);
    const { jkt, claims } = await this.checkSignature(request.proof, now);
    const jti = checkClaims(claims, request, now);
    this.checkNonce(claims.nonce);
    // Remembered past the last moment its iat would be accepted.
    const expiresAt = new Date(this.now() + 2 * PROOF_MAX_SKEW_SECONDS * 1000);
    if (!(await this.replays.firstUse(jkt, jti, expiresAt))) throw invalidProof('the DPoP proof was used before (jti)');
    return { jkt };
  }

  /** The header, read before any key is imported: type, algorithm, no extension, and a public key for that algorithm. */
  private async readHeader(segment: string): Promise<{ readonly alg: string; readonly key: DpopProofKey }> {
    const header = parseJsonObject(Buffer.from(segment, 'base64url').toString('utf8'));
    if (!header) throw invalidProof('the DPoP proof header is not a JSON object with unique member names');
    if (header.typ !== 'dpop+jwt') throw invalidProof('the DPoP proof typ is not dpop+jwt');
    if (typeof header.alg !== 'string' || !this.options.algorithms.includes(header.alg)) throw invalidProof('the DPoP proof alg is not supported');
    // RFC 7515 §4.1.11: no extension is understood here, so none may be critical (b64 included).
    if (header.crit !== undefined || header.b64 !== undefined) throw invalidProof('the DPoP proof header has an extension');
    const { jwk } = header;
    if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw invalidProof('the DPoP proof has no jwk header');
    if (PRIVATE_MEMBERS.some((name) => name in jwk)) throw invalidProof('the DPoP proof jwk is not a public key');
    const key = await keyOf(jwk as Record<string, unknown>, header.alg);
    if (typeof key === 'string') throw invalidProof(key);
    const read = { alg: header.alg, key };
    if (segment.length <= MAX_KEPT_HEADER_LENGTH) this.headers.set(segment, read);
    return read;
  }

  /** The signature by the header's key, then the claims as a JSON object, `exp` and `nbf` when present (RFC 7519 §4.1.4, §4.1.5). */
  private async checkSignature(proof: string, now: number): Promise<{ jkt: string; claims: Record<string, unknown> }> {
    if (proof.length > MAX_PROOF_LENGTH || !isCanonicalCompactJws(proof)) throw invalidProof('the DPoP proof is not a compact JWS in canonical base64url');
    const segment = proof.slice(0, proof.indexOf('.'));
    const { alg, key } = this.headers.get(segment) ?? (await this.readHeader(segment));
    const claims = (await hasValidSignature(proof, alg, key.key)) ? parseJsonObject(Buffer.from(proof.split('.')[1], 'base64url').toString('utf8')) : undefined;
    if (!claims) throw invalidProof('the DPoP proof signature or claims are invalid');
    const { exp, nbf } = claims;
    if ((exp !== undefined && !(typeof exp === 'number' && exp > now)) || (nbf !== undefined && !(typeof nbf === 'number' && nbf <= now))) {
      throw invalidProof('the DPoP proof signature or claims are invalid');
    }
    return { jkt: key.jkt, claims };
  }

  private checkNonce(nonce: unknown): void {
    if (!this.options.requireNonce || this.nonces.isValid(nonce)) return;
    const description = nonce === undefined ? 'a DPoP nonce is required' : 'the DPoP nonce is invalid or expired';
    throw new OAuthError('use_dpop_nonce', description, { dpopNonce: this.nonces.current() });
  }
}

/** `jti`, `htm`, `htu`, `iat` and `ath` (RFC 9449 §4.3 items 8 to 12); returns the `jti`. */
function checkClaims(claims: Record<string, unknown>, request: DpopProofRequest, now: number): string {
  const { jti, htm, htu, iat, ath } = claims;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) throw invalidProof('the DPoP proof jti is missing or too long');
  if (htm !== request.method) throw invalidProof('the DPoP proof htm does not match the request method');
  if (typeof htu !== 'string' || htu.length > 2048 || normalizeHtu(htu) === undefined || normalizeHtu(htu) !== normalizeHtu(request.url)) {
    throw invalidProof('the DPoP proof htu does not match the request URL');
  }
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw invalidProof('the DPoP proof iat is missing');
  if (Math.abs(iat - now) > PROOF_MAX_SKEW_SECONDS) throw invalidProof('the DPoP proof iat is too far from the current time');
  if (request.accessToken !== undefined && ath !== accessTokenHash(request.accessToken)) {
    throw invalidProof('the DPoP proof ath does not match the access token');
  }
  return jti;
}

function invalidProof(description: string): OAuthError {
  return new OAuthError('invalid_dpop_proof', description);
}
