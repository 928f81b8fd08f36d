import { Inject, Injectable, Optional } from '@nestjs/common';
import { readJsonDocument } from '../../protocol/json-object';
import { jwksUriProblem } from './jwks-uri';
import { usableJwkSet, type UsableJwkSet } from './jwk-set';

export interface JwkSetFetchLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export const JWK_SET_FETCH_LIMITS = Symbol('JWK_SET_FETCH_LIMITS');
export const DEFAULT_JWK_SET_FETCH_LIMITS: JwkSetFetchLimits = { timeoutMs: 5000, maxBytes: 256 * 1024 };

/** Fetches a JWK Set over https (or loopback http), within a time and size limit, following no redirect. */
@Injectable()
export class JwkSetFetcher {
  private readonly limits: JwkSetFetchLimits;

  constructor(@Optional() @Inject(JWK_SET_FETCH_LIMITS) limits?: JwkSetFetchLimits) {
    this.limits = limits ?? DEFAULT_JWK_SET_FETCH_LIMITS;
  }

  async fetch(uri: string, spiffe: boolean): Promise<UsableJwkSet> {
    const problem = jwksUriProblem(uri);
    if (problem) throw new Error(problem);
    const response = await fetch(uri, {
      headers: { accept: 'application/json, application/jwk-set+json' },
      redirect: 'error',
      signal: AbortSignal.timeout(this.limits.timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`the JWK Set endpoint answered ${response.status}`);
    }
    const text = await readLimited(response, this.limits.maxBytes);
    return usableJwkSet(readJsonDocument(text), spiffe);
  }
}

async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new Error(`the JWK Set is larger than ${maxBytes} bytes`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`the JWK Set is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
