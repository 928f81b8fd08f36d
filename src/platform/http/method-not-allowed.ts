import type { FastifyInstance, HTTPMethods } from 'fastify';
import { OAuthError } from '../../protocol/oauth-error';
import { renderOAuthError } from './oauth-error-renderer';
import { oauthRouteOptions } from './oauth-route';

// HEAD follows GET (Fastify's exposeHeadRoutes).
const REFUSED_METHODS: readonly HTTPMethods[] = ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * RFC 9110 §15.5.6: on a path whose route declares `OAuthRoute({ otherMethods })`, the methods it does
 * not serve get 405 with `Allow`. Watches the routes as they are registered; the returned function
 * adds the refusals once the application's routes are all there (before Fastify is ready).
 */
export function refuseOtherMethods(fastify: FastifyInstance, realm: string): () => void {
  const paths = new Map<string, { methods: Set<string>; description?: string }>();
  fastify.addHook('onRoute', (route) => {
    const path = paths.get(route.url) ?? { methods: new Set<string>() };
    for (const method of [route.method].flat()) path.methods.add(method);
    if (route.method === 'GET' || (Array.isArray(route.method) && route.method.includes('GET'))) path.methods.add('HEAD');
    path.description ??= oauthRouteOptions(route.config).otherMethods;
    paths.set(route.url, path);
  });
  return () => {
    for (const [url, { methods, description }] of paths) {
      if (description === undefined) continue;
      const allow = [...methods].sort().join(', ');
      const method = REFUSED_METHODS.filter((candidate) => !methods.has(candidate));
      paths.delete(url);
      fastify.route({
        method,
        url,
        handler: (_request, reply) => {
          reply.header('Allow', allow);
          renderOAuthError(reply, OAuthError.invalidRequest(description, { status: 405 }), realm);
        },
      });
    }
  };
}
