import { Inject, Injectable } from '@nestjs/common';
import type {} from '@fastify/view';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { ConfigType } from '../config/config-slice';
import { issuerConfig } from '../config/config.slices';
import { cookieHeader } from '../sessions/session-cookie';
import { UserDirectory } from '../users/user-directory';
import { CSRF_COOKIE, csrfToken } from './csrf';
import type { Page, PageResult } from './page';
import { originOf, securePage } from './page-security';
import { appendQuery } from './redirect-url';
import { describeScopes } from './scope-descriptions';

/** Renders a page result: the templates through Fastify's view support, redirects, cookies, headers. */
@Injectable()
export class PageRenderer {
  private readonly basePath: string;

  constructor(
    private readonly users: UserDirectory,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {
    // Links are absolute paths under the issuer's path, so a proxy may serve us under a prefix.
    this.basePath = new URL(config.issuer).pathname.replace(/\/+$/, '');
  }

  async render(request: FastifyRequest, reply: FastifyReply, { page, cookies = [] }: PageResult): Promise<void> {
    for (const cookie of cookies) reply.header('Set-Cookie', cookie);
    await this.renderPage(request, reply, page);
  }

  private async renderPage(request: FastifyRequest, reply: FastifyReply, page: Page): Promise<void> {
    switch (page.kind) {
      case 'error_page':
        return this.view(reply, 400, 'error', { message: page.description });
      case 'csrf_failed':
        return this.view(reply, 403, 'error', { message: 'The form expired or did not come from this site.' });
      case 'signed_out':
        return this.view(reply, 200, 'signed-out', {});
      case 'redirect':
        securePage(reply);
        return void reply.code(302).header('Location', page.location).send();
      case 'respond':
        return this.respond(reply, page);
      case 'login':
      case 'login_failed': {
        const outcome = page.kind === 'login' ? page : page.outcome;
        const username = page.kind === 'login_failed' ? page.username : (outcome.request.loginHint ?? '');
        return this.form(request, reply, outcome.request.redirectUri, 'login', {
          clientId: outcome.request.client.clientId,
          carried: outcome.carried,
          failed: page.kind === 'login_failed',
          username,
        });
      }
      case 'consent': {
        const user = await this.users.findBySubjectId(page.session.subject);
        return this.form(request, reply, page.request.redirectUri, 'consent', {
          clientName: page.request.client.clientName ?? page.request.client.clientId,
          carried: page.carried,
          scopes: describeScopes(page.request.scopes),
          username: user?.username ?? page.session.subject,
        });
      }
    }
  }

  /** RFC 6749 §4.1.2 (query) or OAuth 2.0 Form Post Response Mode (form_post). */
  private async respond(reply: FastifyReply, page: Extract<Page, { kind: 'respond' }>): Promise<void> {
    const { redirectUri, responseMode } = page.target;
    if (responseMode === 'query') {
      securePage(reply);
      return void reply.code(302).header('Location', appendQuery(redirectUri, page.parameters)).send();
    }
    const scriptNonce = randomBytes(16).toString('base64url');
    securePage(reply, { formTargets: [originOf(redirectUri) ?? redirectUri], scriptNonce });
    await this.send(reply, 200, 'form-post', { action: redirectUri, parameters: page.parameters, scriptNonce });
  }

  /** A page with a form: the CSRF token in the form and its cookie. */
  private async form(request: FastifyRequest, reply: FastifyReply, redirectUri: string, template: string, data: Record<string, unknown>): Promise<void> {
    const csrf = csrfToken(request.headers.cookie);
    if (csrf.fresh) reply.header('Set-Cookie', cookieHeader(CSRF_COOKIE, csrf.token, { secure: this.config.issuer.startsWith('https:') }));
    // The POST is answered with a redirect to the client, which form-action governs too.
    securePage(reply, { formTargets: [originOf(redirectUri) ?? redirectUri] });
    await this.send(reply, 200, template, { ...data, csrfToken: csrf.token });
  }

  private async view(reply: FastifyReply, status: number, template: string, data: Record<string, unknown>): Promise<void> {
    securePage(reply);
    await this.send(reply, status, template, data);
  }

  private async send(reply: FastifyReply, status: number, template: string, data: Record<string, unknown>): Promise<void> {
    const html = await reply.viewAsync(template, { ...data, basePath: this.basePath });
    reply.code(status).header('Content-Type', 'text/html; charset=utf-8').send(html);
  }
}
