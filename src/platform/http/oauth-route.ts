import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/** What a route tells the one error renderer and Fastify setup, kept in its Fastify route config. */
export interface OAuthRouteOptions {
  /** RFC 6750 §3: a protected resource; its invalid_request, invalid_token and insufficient_scope errors carry a Bearer challenge. */
  readonly challenge?: 'Bearer';
  /** RFC 9110 §15.5.6: the other methods on the route's path get 405 with `Allow` and this description. */
  readonly otherMethods?: string;
  /** The route reads its body as sent (json-body-text.ts), which must then be UTF-8. */
  readonly bodyText?: boolean;
}

/** Declares how the route's errors are rendered (docs/errors.md); one per handler. */
export const OAuthRoute = (options: OAuthRouteOptions) => RouteConfig({ oauth: options });

/** The options a route's Fastify config holds, if it declared any. */
export function oauthRouteOptions(config: unknown): OAuthRouteOptions {
  return (config as { oauth?: OAuthRouteOptions } | undefined)?.oauth ?? {};
}

/** The options of the route that serves `request`. */
export function oauthRouteOf(request: Pick<FastifyRequest, 'routeOptions'> | undefined): OAuthRouteOptions {
  return oauthRouteOptions(request?.routeOptions?.config);
}
