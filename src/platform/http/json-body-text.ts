import { pipeline, Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuthError } from '../../protocol/oauth-error';
import { oauthRouteOf } from './oauth-route';

const CHUNKS = Symbol('bodyChunks');
type WithChunks = FastifyRequest & { [CHUNKS]?: Buffer[] };

/**
 * Routes declaring `bodyText` (OAuthRoute) read their body as sent, not only as Fastify parsed it:
 * `JSON.parse` hides a member named twice, which the route refuses (client-registration). Their body
 * must be UTF-8, the one encoding of JSON between systems (RFC 8259 §8.1): another charset is
 * refused before anything is parsed, rather than read as UTF-8.
 */
export function keepBodyText(fastify: FastifyInstance): void {
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (!oauthRouteOf(request).bodyText) return payload;
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw OAuthError.invalidRequest(`the request body must be UTF-8 (RFC 8259 §8.1), not charset=${charset.slice(0, 40)}`);
    }
    const chunks: Buffer[] = [];
    (request as WithChunks)[CHUNKS] = chunks;
    const copy = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done(null, chunk);
      },
    });
    return pipeline(payload, copy, () => undefined);
  });
}

/** The body of a `bodyText` route as sent, decoded as UTF-8; undefined on other routes. */
export function bodyText(request: FastifyRequest): string | undefined {
  const chunks = (request as WithChunks)[CHUNKS];
  return chunks && Buffer.concat(chunks).toString('utf8');
}

/** The `charset` parameter of a media type (RFC 9110 §8.3.1), lower-cased and unquoted. */
function charsetOf(contentType: string | undefined): string | undefined {
  for (const parameter of (contentType ?? '').split(';').slice(1)) {
    const [name, value = ''] = parameter.split('=', 2).map((part) => part.trim());
    if (name.toLowerCase() === 'charset') return value.replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}
