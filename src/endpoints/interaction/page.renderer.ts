import { Inject, Injectable } from '@nestjs/common';
import type {} from '@fastify/view';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Client } from '../../identity/clients/client';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { generateHandle } from '../../protocol/opaque-handle';
import { BrowserCookies } from '../../identity/sessions/browser-cookies';
import { UserDirectory } from '../../identity/users/user-directory';
import { PasskeyCeremonies, type PasskeyOwner } from '../../identity/passkeys/passkey-ceremonies';
import type { ChallengeBinding } from '../../identity/passkeys/webauthn-challenges';
import { CsrfTokens, type CsrfBinding } from './csrf';
import type { AccountPage } from './account-page';
import type { DevicePage } from './device-page';
import { acrOf } from '../../protocol/authentication-context';
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
    private readonly cookies: BrowserCookies,
    private readonly csrf: CsrfTokens,
    @Inject(issuerConfig.KEY) config: ConfigType<typeof issuerConfig>,
    private readonly ceremonies: PasskeyCeremonies,
  ) {
    // Links are absolute paths under the issuer's path, so a proxy may serve us under a prefix.
    this.basePath = new URL(config.issuer).pathname.replace(/\/+$/, '');
  }

  async render(request: FastifyRequest, reply: FastifyReply, { page, cookies = [], sessionHandle }: PageResult): Promise<void> {
    for (const cookie of cookies) reply.header('Set-Cookie', cookie);
    await this.renderPage({ request, reply, sessionHandle }, page);
  }

  private async renderPage(context: FormContext, page: Page): Promise<void> {
    const { reply } = context;
    switch (page.kind) {
      case 'error_page':
        return this.view(reply, 400, 'error', { message: page.description });
      case 'csrf_failed':
        return this.view(reply, 403, 'error', { message: 'The form expired or did not come from this site.' });
      case 'busy':
        return this.unavailable(reply, page.retryAfterSeconds, 'Too many sign-ins are being checked right now. Please try again in a few seconds.');
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
        const failed = page.kind === 'login_failed';
        return this.form(
          context,
          'pre-session',
          [outcome.request.redirectUri],
          'login',
          {
            clientId: outcome.request.client.clientId,
            clientName: displayName(outcome.request.client),
            carried: outcome.carried,
            failed: failed && !page.passkey,
            passkeyFailed: failed && page.passkey === true,
            username,
          },
          200,
          { action: `${this.basePath}/interaction/passkey` },
        );
      }
      case 'step_up':
      case 'step_up_failed': {
        const outcome = page.kind === 'step_up' ? page : page.outcome;
        const user = await this.users.findBySubjectId(outcome.session.subject);
        const data = {
          clientName: displayName(outcome.request.client),
          carried: outcome.carried,
          failed: page.kind === 'step_up_failed',
          username: user?.username ?? outcome.session.subject,
          cancelAction: `${this.basePath}/interaction/step-up`,
        };
        return this.form(context, 'session', [outcome.request.redirectUri], 'step-up', data, 200, { action: data.cancelAction });
      }
      case 'consent': {
        const user = await this.users.findBySubjectId(page.session.subject);
        return this.form(context, 'session', [page.request.redirectUri], 'consent', {
          clientName: displayName(page.request.client),
          clientHost: page.request.client.clientHost,
          remembered: !page.request.client.consentEveryTime,
          carried: page.carried,
          scopes: describeScopes(page.scopes),
          username: user?.username ?? page.session.subject,
        });
      }
      case 'account_login': {
        const data = { action: `${this.basePath}/account/sign-in`, clientId: 'your account', carried: {}, ...page };
        return this.form(context, 'pre-session', [], 'login', data, 200, { action: `${this.basePath}/account/passkey-sign-in` });
      }
      case 'account':
        return this.accountPage(context, page);
      case 'logout_confirmation':
        return this.form(context, 'session', page.returnTo === undefined ? [] : [page.returnTo], 'logout', { carried: page.carried });
      default:
        return this.devicePage(context, page);
    }
  }

  /** A page with Retry-After: the service cannot answer now (503, page-exception.filter.ts), sign-ins are queued, or the address asked too much (429). */
  async unavailable(
    reply: FastifyReply,
    retryAfterSeconds: number,
    message = 'The service is temporarily unavailable. Please try again in a few seconds.',
    status: 429 | 503 = 503,
  ): Promise<void> {
    reply.header('Retry-After', String(retryAfterSeconds));
    return this.view(reply, status, 'error', { message });
  }

  /** The verification page's steps (docs/device-authorization.md): the login and consent templates post to the device flow's endpoints. */
  private async devicePage(context: FormContext, page: DevicePage): Promise<void> {
    const device = `${this.basePath}/connect/device`;
    switch (page.kind) {
      case 'device_login':
        return this.form(
          context,
          'pre-session',
          [],
          'login',
          {
            action: `${device}/login`,
            clientId: 'your device',
            clientName: 'your device',
            carried: { user_code: page.userCode },
            failed: page.failed && !page.passkey,
            passkeyFailed: page.failed && page.passkey === true,
            username: page.username,
          },
          200,
          { action: `${device}/passkey` },
        );
      case 'device_entry': {
        const { problem } = page;
        if (problem?.kind === 'throttled') context.reply.header('Retry-After', String(problem.retryAfterSeconds));
        const retryAfterMinutes = problem?.kind === 'throttled' ? Math.ceil(problem.retryAfterSeconds / 60) : undefined;
        const username = (await this.users.findBySubjectId(page.subject))?.username ?? page.subject;
        const status = problem?.kind === 'throttled' ? 429 : 200;
        return this.form(context, 'session', [], 'device', { userCode: page.userCode, problem: problem?.kind, retryAfterMinutes, username }, status);
      }
      case 'device_consent': {
        const username = (await this.users.findBySubjectId(page.subject))?.username ?? page.subject;
        return this.form(context, 'session', [], 'consent', {
          action: `${device}/consent`,
          clientName: page.clientName,
          // Asked for every code, remembered or not (docs/device-authorization.md).
          remembered: false,
          deviceUserCode: page.userCode,
          carried: { user_code: page.userCode },
          scopes: describeScopes(page.scopes),
          username,
        });
      }
      case 'device_step_up': {
        const username = (await this.users.findBySubjectId(page.subject))?.username ?? page.subject;
        const data = { clientName: page.clientName, carried: { user_code: page.userCode }, failed: page.failed === true, username };
        return this.form(context, 'session', [], 'step-up', data, 200, { action: `${device}/step-up` });
      }
      case 'device_answered':
        return this.view(context.reply, 200, 'device-answered', { approved: page.approved, clientName: page.clientName, unmet: page.unmet === true });
    }
  }

  /** docs/passkeys.md#the-account-page--get-account: a recent sign-in may add a passkey; an older one signs in again first. */
  private accountPage(context: FormContext, page: Extract<AccountPage, { kind: 'account' }>): Promise<void> {
    const { user, session, recent } = page;
    const owner = { subject: user.subjectId, username: user.username, displayName: typeof user.claims.name === 'string' ? user.claims.name : user.username };
    const data = {
      username: user.username,
      signedInWith: acrOf(session.authenticationMethods) === 'phr' ? 'a passkey' : 'a password',
      signedInAt: new Date(session.authTime * 1000).toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
      recent,
      notice: page.notice,
      passkeys: page.passkeys.map((passkey) => ({
        id: passkey.credentialId,
        name: passkey.name,
        created: passkey.createdAt.toISOString().slice(0, 10),
        lastUsed: passkey.lastUsedAt?.toISOString().slice(0, 10),
      })),
    };
    const passkey = recent ? { action: `${this.basePath}/account/passkeys`, owner } : { action: `${this.basePath}/account/passkey-sign-in` };
    return this.form(context, 'session', [], 'account', data, 200, passkey);
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

  /**
   * A page with a form, its CSRF token bound to the browser's session or pre-session (a pre-session
   * is started when the browser has none). Its POST may be answered with a redirect to `formTargets`,
   * which form-action governs too.
   */
  private async form(
    context: FormContext,
    kind: CsrfBinding['kind'],
    formTargets: readonly string[],
    template: string,
    data: Record<string, unknown>,
    status = 200,
    passkey?: PasskeyControls,
  ): Promise<void> {
    const { request, reply } = context;
    let handle = kind === 'session' ? (context.sessionHandle ?? this.cookies.session(request.headers.cookie)) : this.cookies.preSession(request.headers.cookie);
    if (handle === undefined) {
      // A session page is only shown for an active session; a pre-session starts here.
      if (kind === 'session') throw new Error('a session form without a session');
      handle = generateHandle();
      reply.header('Set-Cookie', this.cookies.setPreSession(handle));
    }
    const controls = passkey && this.ceremonies.relyingParty.available ? await this.passkeyControls(passkey, { kind, handle }) : undefined;
    securePage(reply, { formTargets: formTargets.map((target) => originOf(target) ?? target), scriptNonce: controls?.scriptNonce });
    await this.send(reply, status, template, { ...data, csrfToken: this.csrf.tokenFor(kind, handle), passkey: controls });
  }

  /**
   * What a passkey form needs (docs/passkeys.md#the-pages): the WebAuthn options with a challenge
   * bound to the same cookie as the form's CSRF token, and the nonce of the script that uses them.
   */
  private async passkeyControls(controls: PasskeyControls, binding: ChallengeBinding): Promise<Record<string, string>> {
    const options = controls.owner ? await this.ceremonies.registrationOptions(controls.owner, binding) : await this.ceremonies.authenticationOptions(binding);
    return {
      action: controls.action,
      ceremony: controls.owner ? 'create' : 'get',
      options: JSON.stringify(options),
      scriptNonce: randomBytes(16).toString('base64url'),
    };
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

/**
 * The name users see: a metadata document's `client_name` always with its URL's host (docs/agents.md#what-a-self-registered-client-may-do),
 * so that no document passes itself off as another application, even in an operator's own template.
 */
function displayName(client: Client): string {
  const name = client.clientName ?? client.clientId;
  return client.clientHost === undefined ? name : `${name} (${client.clientHost})`;
}

/** A form that signs in with a passkey (`get`), or creates one for `owner` (`create`), posting to `action`. */
interface PasskeyControls {
  readonly action: string;
  readonly owner?: PasskeyOwner;
}

/** The request and reply of a page, with the session handle this response starts, if any. */
interface FormContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly sessionHandle: string | undefined;
}
