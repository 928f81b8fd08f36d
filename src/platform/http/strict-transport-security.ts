import type { FastifyInstance } from 'fastify';

const ONE_YEAR_SECONDS = 31_536_000;

/**
 * HTTP Strict Transport Security (RFC 6797) on every response when the issuer is https: a browser
 * that has seen it once never talks to the issuer's host over plain http again, so the cookies and
 * pages of sign-in cannot be stripped to http. Browsers ignore the header on http (§8.1), and on an
 * http issuer it is not sent at all. No `includeSubDomains`: other hosts are not ours to decide.
 */
export function sendStrictTransportSecurity(fastify: FastifyInstance, issuer: string): void {
  if (!issuer.startsWith('https:')) return;
  const value = `max-age=${ONE_YEAR_SECONDS}`;
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.header('Strict-Transport-Security', value);
    done();
  });
}
