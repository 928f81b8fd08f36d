import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { generateHandle, hashHandle, isHandle } from '../oauth/opaque-handle';
import type { SignInSession } from '../sessions/sign-in-session';
import { AUTHORIZATION_CODE_LIFETIME_SECONDS, type AuthorizationCode, type IssuedFromCode } from './authorization-code';
import { AuthorizationCodeRepository } from './authorization-code.repository';

export interface CodeRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly nonce?: string;
  readonly scopes: readonly string[];
}

export type CodeRedemption =
  | { readonly outcome: 'redeemed'; readonly code: AuthorizationCode }
  | { readonly outcome: 'unknown' }
  | { readonly outcome: 'replayed'; readonly code: AuthorizationCode; readonly issued?: IssuedFromCode };

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

  /** The code, consumed by this call; or why it cannot be redeemed. Another client's code is left untouched. */
  async redeem(code: string, clientId: string): Promise<CodeRedemption> {
    if (!isHandle(code)) return { outcome: 'unknown' };
    const codeHash = hashHandle(code);
    const stored = await this.repository.find(codeHash);
    if (!stored || stored.clientId !== clientId) return { outcome: 'unknown' };
    const consumption = await this.repository.consume(codeHash, new Date());
    return consumption.consumed ? { outcome: 'redeemed', code: stored } : { outcome: 'replayed', code: stored, issued: consumption.issued };
  }

  /** Binds the access token to its code; false when the code was replayed meanwhile (revoke it then). */
  recordIssued(code: AuthorizationCode, issued: IssuedFromCode): Promise<boolean> {
    return this.repository.recordIssued(code.codeHash, issued);
  }

  /** At logout, the session's codes not yet redeemed become unknown (docs/browser-sign-in.md#logout). */
  revokeUnredeemed(sessionId: string): Promise<number> {
    return this.repository.deleteUnredeemedOfSession(sessionId);
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
