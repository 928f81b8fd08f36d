import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { RedirectOrigins } from './identity/clients/redirect-origins';
import { APP_CONFIG, type AppConfig } from './platform/config/app.config';
import { GrantValidatorRegistry } from './grants/grant-validator.registry';
import { TollgateMetrics } from './platform/metrics/metrics';
import { recordRequestMetrics } from './platform/metrics/request-metrics.hook';
import { limitConcurrentRequests } from './platform/http/concurrency-limit';
import { refuseOtherMethods } from './platform/http/method-not-allowed';
import { allowRedirectOrigins } from './platform/http/cors';
import { keepBodyText } from './platform/http/json-body-text';
import { rememberClientAddress } from './platform/http/client-address-context';
import { stampArrivalTime } from './platform/http/request-arrival';
import { sendStrictTransportSecurity } from './platform/http/strict-transport-security';
import { nameRequestSpansByRoute } from './platform/tracing/spans';

const HEADERS_TIMEOUT_MS = 10_000;

/**
 * Tollgate's hooks on the Fastify instance, wherever it runs: `createApp` or an application that
 * imports `TollgateModule`. Installed when Nest builds the providers, before it registers the routes.
 */
@Injectable()
export class FastifySetup implements OnApplicationBootstrap {
  private readonly addMethodRefusals: () => void;

  constructor(
    host: HttpAdapterHost,
    @Inject(APP_CONFIG) config: AppConfig,
    redirectOrigins: RedirectOrigins,
    metrics: TollgateMetrics,
    grants: GrantValidatorRegistry,
  ) {
    const fastify = host.httpAdapter?.getInstance<FastifyInstance>();
    if (typeof fastify?.addHook !== 'function') throw new Error('Tollgate runs on Fastify: create the application with a FastifyAdapter');
    // Node waits 60 s for a request's headers by default; a slow client gets far less (slow loris).
    fastify.server.headersTimeout = HEADERS_TIMEOUT_MS;
    // RFC 9112 §9.6: a client that shuts down its sending side after its request still wants the
    // answer; Node's default drops the request instead (its `httpAllowHalfOpen`, long-standing if undocumented).
    Object.assign(fastify.server, { httpAllowHalfOpen: true });
    nameRequestSpansByRoute(fastify);
    sendStrictTransportSecurity(fastify, config.issuer);
    stampArrivalTime(fastify);
    keepBodyText(fastify);
    rememberClientAddress(fastify);
    limitConcurrentRequests(fastify, config.maxConcurrentRequests, config.issuer);
    allowRedirectOrigins(fastify, (origin) => redirectOrigins.has(origin));
    // Grant validators are registered at boot and never change.
    recordRequestMetrics(fastify, metrics, new Set(grants.grantTypes()));
    this.addMethodRefusals = refuseOtherMethods(fastify, config.issuer);
  }

  /** Nest has registered its routes by now, and Fastify is not ready yet. */
  onApplicationBootstrap(): void {
    this.addMethodRefusals();
  }
}
