import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '../audit/audit-event';
import { ClientStore } from '../clients/client.store';
import type { ConfigType } from '../config/config-slice';
import { issuerConfig } from '../config/config.slices';
import { IdTokenHintVerifier } from '../id-token/id-token-hint.verifier';
import type { InspectedParameters } from '../oauth/inspected-parameters';
import { OAuthError } from '../oauth/oauth-error';
import { SESSION_COOKIE, clearedCookieHeader, readCookie } from '../sessions/session-cookie';
import { SignInSessionService } from '../sessions/sign-in-session.service';
import type { EndSessionParameters } from './end-session-parameters';
import type { PageResult } from './page';
import { appendQuery } from './redirect-url';

type EndSessionInput = InspectedParameters<EndSessionParameters>;

class LogoutRefused extends Error {}

/**
 * OpenID Connect RP-Initiated Logout 1.0: ends the browser's session and clears its cookie, then
 * returns to a post-logout redirect URI registered for the client named by `id_token_hint` (or
 * `client_id`), or shows the signed-out page. An unregistered URI is refused on a page, never followed.
 */
@Injectable()
export class EndSessionService {
  constructor(
    private readonly clients: ClientStore,
    private readonly hints: IdTokenHintVerifier,
    private readonly sessions: SignInSessionService,
    private readonly audit: AuditSink,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  async endSession(parameters: EndSessionInput, cookies: string | undefined): Promise<PageResult> {
    let location: string | undefined;
    try {
      location = await this.returnLocation(parameters);
    } catch (error) {
      if (error instanceof LogoutRefused) return { page: { kind: 'error_page', description: error.message } };
      throw error;
    }
    const handle = readCookie(cookies, SESSION_COOKIE);
    const session = await this.sessions.find(handle);
    await this.sessions.end(handle);
    this.audit.emit({ name: 'user.signed_out', subject: session?.subject });
    return {
      page: location === undefined ? { kind: 'signed_out' } : { kind: 'redirect', location },
      cookies: [clearedCookieHeader(SESSION_COOKIE, this.config.issuer.startsWith('https:'))],
    };
  }

  /** Where to go after logout, `state` appended; undefined for the signed-out page. */
  private async returnLocation(parameters: EndSessionInput): Promise<string | undefined> {
    const hintToken = single(parameters, 'id_token_hint');
    const hint = hintToken === undefined ? undefined : await this.hints.verify(hintToken);
    if (hintToken !== undefined && !hint) throw new LogoutRefused('id_token_hint is not a valid ID token of this service');
    const named = single(parameters, 'client_id');
    if (hint && named !== undefined && named !== hint.clientId) throw new LogoutRefused('client_id does not match id_token_hint');
    const uri = single(parameters, 'post_logout_redirect_uri');
    if (uri === undefined) return undefined;
    const clientId = hint?.clientId ?? named;
    const client = clientId === undefined ? undefined : await this.clients.find(clientId);
    if (!client || !client.enabled || !client.postLogoutRedirectUris.includes(uri)) {
      throw new LogoutRefused('post_logout_redirect_uri is not registered for the client');
    }
    const state = single(parameters, 'state');
    return state === undefined ? uri : appendQuery(uri, { state });
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
