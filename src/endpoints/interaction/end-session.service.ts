import { Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { ClientStore } from '../../identity/clients/client.store';
import { IdTokenHintVerifier, type IdTokenHint } from '../../tokens/id-token/id-token-hint.verifier';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { OAuthError } from '../../protocol/oauth-error';
import { BrowserCookies } from '../../identity/sessions/browser-cookies';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';
import { SessionTermination } from '../../identity/signals/session-termination';
import { CSRF_FIELD, CsrfTokens } from './csrf';
import { END_SESSION_PARAMETERS, type EndSessionParameters, type LogoutForm } from './end-session-parameters';
import type { PageResult } from './page';
import { appendQuery } from './redirect-url';

type EndSessionInput = InspectedParameters<EndSessionParameters>;

class LogoutRefused extends Error {}

/** A logout request whose parameters passed: where to go afterwards, and whom the hint names. */
interface LogoutRequest {
  readonly hint?: IdTokenHint;
  /** The post-logout redirect URI with `state`; undefined for the signed-out page. */
  readonly location?: string;
  readonly returnTo?: string;
}

/**
 * OpenID Connect RP-Initiated Logout 1.0: ends the browser's session and clears its cookie, then
 * returns to a post-logout redirect URI registered for the client named by `id_token_hint` (or
 * `client_id`), or shows the signed-out page. An unregistered URI is refused on a page, never followed.
 * Unless the hint names the signed-in user, the user confirms first (§2), so that another site
 * cannot sign the user out by sending the browser here.
 */
@Injectable()
export class EndSessionService {
  constructor(
    private readonly clients: ClientStore,
    private readonly hints: IdTokenHintVerifier,
    private readonly sessions: SignInSessionService,
    private readonly cookies: BrowserCookies,
    private readonly csrf: CsrfTokens,
    private readonly audit: AuditSink,
    private readonly termination: SessionTermination,
  ) {}

  async endSession(parameters: EndSessionInput, cookies: string | undefined): Promise<PageResult> {
    return this.withRequest(parameters, async (request) => {
      const handle = this.cookies.session(cookies);
      const session = await this.sessions.find(handle);
      if (session && request.hint?.subject !== session.subject) {
        return { page: { kind: 'logout_confirmation', carried: carriedParameters(parameters), returnTo: request.returnTo } };
      }
      return this.signOut(handle, session, request.location);
    });
  }

  /** The confirmation page's form, bound to the session it ends. */
  async confirm(form: InspectedParameters<LogoutForm>, cookies: string | undefined): Promise<PageResult> {
    const handle = this.cookies.session(cookies);
    if (!this.csrf.isValid({ kind: 'session', handle }, form.accepted(CSRF_FIELD))) return { page: { kind: 'csrf_failed' } };
    return this.withRequest(form, async (request) => this.signOut(handle, await this.sessions.find(handle), request.location));
  }

  /**
   * Ends the session, and with it its codes not yet redeemed (the code grant checks the session); the
   * clients and receivers are told from the outbox after this page answers (docs/signals.md#when-a-session-ends).
   */
  private async signOut(handle: string | undefined, session: SignInSession | undefined, location: string | undefined): Promise<PageResult> {
    await this.termination.endBrowserSession(handle);
    this.audit.emit({ name: 'user.signed_out', subject: session?.subject });
    return {
      page: location === undefined ? { kind: 'signed_out' } : { kind: 'redirect', location },
      cookies: [this.cookies.clearSession()],
    };
  }

  private async withRequest(parameters: EndSessionInput, next: (request: LogoutRequest) => Promise<PageResult>): Promise<PageResult> {
    let request: LogoutRequest;
    try {
      request = await this.readRequest(parameters);
    } catch (error) {
      if (error instanceof LogoutRefused) return { page: { kind: 'error_page', description: error.message } };
      throw error;
    }
    return next(request);
  }

  private async readRequest(parameters: EndSessionInput): Promise<LogoutRequest> {
    const hintToken = single(parameters, 'id_token_hint');
    const hint = hintToken === undefined ? undefined : await this.hints.verify(hintToken);
    if (hintToken !== undefined && !hint) throw new LogoutRefused('id_token_hint is not a valid ID token of this service');
    const named = single(parameters, 'client_id');
    if (hint && named !== undefined && named !== hint.clientId) throw new LogoutRefused('client_id does not match id_token_hint');
    const uri = single(parameters, 'post_logout_redirect_uri');
    if (uri === undefined) return { hint };
    const clientId = hint?.clientId ?? named;
    const client = clientId === undefined ? undefined : await this.clients.find(clientId);
    if (!client || !client.enabled || !client.postLogoutRedirectUris.includes(uri)) {
      throw new LogoutRefused('post_logout_redirect_uri is not registered for the client');
    }
    const state = single(parameters, 'state');
    return { hint, returnTo: uri, location: state === undefined ? uri : appendQuery(uri, { state }) };
  }
}

/** A repeated or overlong parameter refuses the logout on a page, like any other problem. */
function single(parameters: EndSessionInput, name: keyof EndSessionParameters): string | undefined {
  try {
    return parameters.valid(name);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    throw new LogoutRefused(error.description);
  }
}

/** The logout request for the confirmation form's hidden fields (read and found valid before). */
function carriedParameters(parameters: EndSessionInput): Record<string, string> {
  const carried: Record<string, string> = {};
  for (const name of END_SESSION_PARAMETERS) {
    const value = parameters.accepted(name);
    if (value !== undefined) carried[name] = value;
  }
  return carried;
}
