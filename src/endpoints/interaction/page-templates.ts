import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { Eta } from 'eta';
import type { ConfigType } from '../../platform/config/config-slice';
import { interactionViews } from '../../platform/config/config.slices';
import { viewsDirectory } from './views-directory';

/**
 * The sign-in pages' templates (docs/browser-sign-in.md) on the Fastify instance, registered when Nest
 * builds the providers, before it registers the routes. Eta escapes every <%= %> output.
 */
@Injectable()
export class PageTemplates {
  constructor(host: HttpAdapterHost, @Inject(interactionViews.KEY) views: ConfigType<typeof interactionViews>) {
    const fastify = host.httpAdapter?.getInstance<FastifyInstance>();
    // An application context (an operator command) serves no pages; `FastifySetup` refuses another HTTP adapter.
    if (typeof fastify?.register !== 'function') return;
    const templates = viewsDirectory(views.viewsDir);
    void fastify.register(import('@fastify/view'), { engine: { eta: new Eta({ views: templates }) }, templates, production: true });
  }
}
