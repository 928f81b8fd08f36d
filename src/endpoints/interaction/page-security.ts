import type { FastifyReply } from 'fastify';

/**
 * Headers of every sign-in page: no framing (clickjacking), no caching, no inline script unless
 * this response's nonce allows it, forms only to us and to the client's redirect origin (Chromium
 * applies form-action to the redirect that follows a POST).
 */
export function securePage(reply: FastifyReply, options: { formTargets?: readonly string[]; scriptNonce?: string } = {}): void {
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(' ');
  const script = options.scriptNonce ? `'nonce-${options.scriptNonce}'` : "'none'";
  reply.header(
    'Content-Security-Policy',
    `default-src 'none'; script-src ${script}; style-src 'self'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Cache-Control', 'no-store');
  reply.header('Pragma', 'no-cache');
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
}

/** The origin of a URL, for CSP source lists; undefined for one that has none. */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
