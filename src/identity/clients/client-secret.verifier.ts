import { createHash, timingSafeEqual } from 'node:crypto';
import type { Client } from './client';

/** The stored form of a client secret: SHA-256, base64 (docs/client-authentication.md). */
export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64');
}

/** Checks a presented secret against a client's unexpired secrets in constant time. */
export class ClientSecretVerifier {
  constructor(private readonly now: () => Date = () => new Date()) {}

  verify(client: Client, presentedSecret: string): boolean {
    const presented = createHash('sha256').update(presentedSecret, 'utf8').digest();
    const now = this.now().getTime();
    let matched = false;
    for (const secret of client.secrets) {
      if (secret.expiresAt !== undefined && secret.expiresAt.getTime() <= now) continue;
      if (secret.hash.length === presented.length && timingSafeEqual(secret.hash, presented)) matched = true;
    }
    return matched;
  }
}
