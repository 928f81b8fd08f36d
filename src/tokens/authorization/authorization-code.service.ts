import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { generateHandle, hashHandle, isHandle } from '../../protocol/opaque-handle';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import { AUTHORIZATION_CODE_LIFETIME_SECONDS, type AuthorizationCode, type IssuedFromCode } from './authorization-code';
import { AuthorizationCodeRepository } from './authorization-code.repository';

export interface CodeRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly redirectUriSent: boolean;
  readonly codeChallenge: string;
  readonly nonce?: string;
  readonly scopes: readonly string[];
  /** RFC 8707 resource URIs the code was authorized for; empty when none was requested. */
  readonly resources: readonly string[];
  /** RFC 9449 §10: the DPoP key the code is bound to, by thumbprint. */
  readonly dpopJkt?: string;
}

/** A code presented at the token endpoint, before it is consumed: `used` when it was redeemed already. */
export type CodeLookup = { readonly outcome: 'unknown' } | { readonly outcome: 'unused' | 'used'; readonly code: AuthorizationCode };

export type CodeConsumption = { readonly outcome: 'redeemed' } | { readonly outcome: 'replayed'; readonly issued?: IssuedFromCode };

/** Issues and redeems authorization codes (RFC 6749 §4.1.2, §10.5; RFC 7636). */
@Injectable()
export class AuthorizationCodeService {
  constructor(private readonly repository: AuthorizationCodeRepository) {}

  /** A new code with 256 random bits; only its hash is stored. */
  async issue(request: CodeRequest, session: SignInSession): Promise<string> {
    const code = generateHandle();
    await this.repository.add({
      ...request,
      codeHash: hashHandle(code),
      subject: session.subject,
      sessionId: session.sessionId,
      authTime: session.authTime,
      authenticationMethods: session.authenticationMethods,
      expiresAt: new Date(Date.now() + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000),
    });
    return code;
  }

  /**
   * The code as stored, not consumed yet: the caller checks the request against it first, so that a
   * request failing a check (a wrong `code_verifier`) leaves the code to its client. Another client's
   * code is unknown.
   */
  async find(code: string, clientId: string): Promise<CodeLookup> {
    if (!isHandle(code)) return { outcome: 'unknown' };
    const stored = await this.repository.find(hashHandle(code));
    if (!stored || stored.code.clientId !== clientId) return { outcome: 'unknown' };
    return { outcome: stored.used ? 'used' : 'unused', code: stored.code };
  }

  /** Uses the code up: `redeemed` for exactly one caller, `replayed` (with what it issued) for every other. */
  async consume(code: AuthorizationCode): Promise<CodeConsumption> {
    const consumption = await this.repository.consume(code.codeHash, new Date());
    return consumption.consumed ? { outcome: 'redeemed' } : { outcome: 'replayed', issued: consumption.issued };
  }

  /** Binds the access token to its code; false when the code was replayed meanwhile (revoke it then). */
  recordIssued(code: AuthorizationCode, issued: IssuedFromCode): Promise<boolean> {
    return this.repository.recordIssued(code.codeHash, issued);
  }

  purge(now = new Date()): Promise<number> {
    return this.repository.deleteExpiredBefore(now);
  }
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge, compared in constant time. */
export function verifiesChallenge(verifier: string, challenge: string): boolean {
  const computed = createHash('sha256').update(verifier, 'ascii').digest();
  const expected = Buffer.from(challenge, 'base64url');
  return expected.length === computed.length && timingSafeEqual(computed, expected);
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export function isCodeVerifier(value: string): boolean {
  return /^[A-Za-z0-9._~-]{43,128}$/.test(value);
}
