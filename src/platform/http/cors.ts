import type { FastifyInstance } from 'fastify';

/** The endpoints browser apps call from their own origin (docs/browser-sign-in.md). */
const CORS_PATHS: ReadonlySet<string> = new Set([
  '/connect/token',
  '/connect/userinfo',
  '/connect/revocation',
  // RFC 9126: a public browser app pushes its authorization requests from its own origin.
  '/connect/par',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration/jwks',
]);
// RFC 8414 §3.1: the metadata of an issuer with a path, `/.well-known/oauth-authorization-server/<path>`.
const PATH_INSERTED_METADATA = '/.well-known/oauth-authorization-server/';
const PREFLIGHT_MAX_AGE_SECONDS = 600;
// RFC 9449 §4.1, §8: a browser app sends its proof in `DPoP` and must read the server's nonce.
const ALLOWED_HEADERS = 'Authorization, Content-Type, DPoP';
const EXPOSED_HEADERS = 'WWW-Authenticate, Retry-After, DPoP-Nonce';

/**
 * CORS (Fetch Standard §3.2) for the origins of registered redirect URIs and only those: a preflight
 * from one gets the methods and headers these endpoints take; any other origin gets no CORS header,
 * so the browser keeps the response from it. No credentials: these endpoints use no cookies.
 */
export function allowRedirectOrigins(fastify: FastifyInstance, isAllowed: (origin: string) => Promise<boolean>): void {
  fastify.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    const path = request.url.split('?', 1)[0];
    if (origin === undefined || !(CORS_PATHS.has(path) || path.startsWith(PATH_INSERTED_METADATA))) return;
    // Without the registry (database down) no origin is allowed; the endpoint itself answers as usual.
    const allowed = origin.length <= 2048 && (await isAllowed(origin).catch(() => false));
    if (allowed) reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Vary', 'Origin');
    if (request.method !== 'OPTIONS') {
      if (allowed) reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return;
    }
    if (allowed) {
      reply.header('Access-Control-Allow-Methods', 'GET, POST');
      reply.header('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      reply.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    }
    return reply.code(204).send();
  });
}
