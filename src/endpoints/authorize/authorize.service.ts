import { Inject, Injectable } from '@nestjs/common';
import { ClientStore } from '../../identity/clients/client.store';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { OAuthError } from '../../protocol/oauth-error';
import type { ResourceLookup } from '../../identity/resources/resource-indicators';
import { ResourceStore } from '../../identity/resources/resource.store';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import { UserDirectory } from '../../identity/users/user-directory';
import { PasskeyRepository } from '../../identity/passkeys/passkey.repository';
import { acrOf, meetsRequirement } from '../../protocol/authentication-context';
import { AuthorizationCodeService } from '../../tokens/authorization/authorization-code.service';
import { carriedValue, type AuthorizationInput } from './authorization-parameters';
import { errorResponse, respond, type AuthorizationOutcome, type CarriedParameters } from './authorization-outcome';
import {
  AUTHORIZATION_PARAMETERS,
  UntrustedRedirectError,
  readClientId,
  resolveRedirectUri,
  responseTarget,
  validateAuthorizationRequest,
  type AuthorizationRequest,
  type ResponseTarget,
} from './authorization-request';
import { ConsentRepository } from '../../tokens/authorization/consent.repository';
import { isPushedRequestUri } from './pushed-authorization-request';
import { PushedAuthorizationService } from './pushed-authorization.service';

/** What the user has done on the pages during this authorization request. */
export interface InteractionProgress {
  /** The user signed in on the login page just now: `prompt=login` and `max_age` are satisfied. */
  readonly signedInNow?: boolean;
  /** The user allowed the request on the consent page just now. */
  readonly consented?: boolean;
  /** The request comes back from the login or consent page: a pushed request was used at the endpoint already. */
  readonly resumed?: boolean;
}

/**
 * The authorization endpoint's decisions (OpenID Connect Core §3.1.2): validate the request, then
 * sign in, ask consent, or issue a code, answering `prompt=none` with an error instead of a page.
 */
@Injectable()
export class AuthorizeService {
  constructor(
    @Inject(ClientStore) private readonly clients: Pick<ClientStore, 'lookup'>,
    @Inject(ResourceStore) private readonly resources: { readonly catalog: ResourceLookup },
    @Inject(UserDirectory) private readonly users: Pick<UserDirectory, 'findBySubjectId'>,
    private readonly consents: ConsentRepository,
    @Inject(AuthorizationCodeService) private readonly codes: Pick<AuthorizationCodeService, 'issue'>,
    @Inject(PushedAuthorizationService) private readonly pushed: Pick<PushedAuthorizationService, 'redeem' | 'keep' | 'consume'>,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
    @Inject(PasskeyRepository) private readonly passkeys: Pick<PasskeyRepository, 'countOf'>,
  ) {}

  async authorize(parameters: AuthorizationInput, session: SignInSession | undefined, progress: InteractionProgress = {}): Promise<AuthorizationOutcome> {
    return this.handle(parameters, progress, (request, carried) => this.decide(request, carried, session, progress));
  }

  /**
   * The user's answer on the consent page: a deny is `access_denied` at the redirect URI; an allow is
   * remembered (per user, client and scopes) and the request goes on.
   */
  async consent(parameters: AuthorizationInput, session: SignInSession | undefined, allowed: boolean): Promise<AuthorizationOutcome> {
    return this.handle(parameters, { consented: true, resumed: true }, async (request, carried) => {
      if (!allowed) throw OAuthError.accessDenied('the user denied the request');
      if (session && !request.client.consentEveryTime) await this.consents.allow(session.subject, request.client.clientId, request.scopes);
      return this.decide(request, carried, session, { consented: true });
    });
  }

  /** The user cancelled on the step-up page: `access_denied` at the redirect URI (OpenID Connect Core §3.1.2.6); the session stays. */
  async cancel(parameters: AuthorizationInput): Promise<AuthorizationOutcome> {
    return this.handle(parameters, { resumed: true }, () => Promise.reject(OAuthError.accessDenied('the user cancelled the sign-in')));
  }

  /** Validates the request and answers its errors: on a page until the redirect URI is trusted, there after. */
  private async handle(
    parameters: AuthorizationInput,
    progress: InteractionProgress,
    next: (request: AuthorizationRequest, carried: CarriedParameters) => Promise<AuthorizationOutcome>,
  ): Promise<AuthorizationOutcome> {
    let target: ResponseTarget | undefined;
    try {
      const found = await this.clients.lookup(readClientId(parameters));
      // docs/agents.md: a metadata document that cannot be used is told on the page, never at a redirect URI.
      if ('problem' in found) throw new UntrustedRedirectError(found.problem);
      const { client } = found;
      if (!client.enabled) throw new UntrustedRedirectError('the client is unknown');
      const requested = parameters.accepted('request_uri');
      const requestUri = isPushedRequestUri(requested) ? requested : undefined;
      // docs/browser-sign-in.md: a bad request_uri goes to the redirect URI only when the client has exactly one.
      if (requestUri && client.redirectUris.length === 1) target = { redirectUri: client.redirectUris[0], responseMode: 'query' };
      // RFC 9126 §4: the pushed parameters replace those sent beside request_uri.
      const input = requestUri ? await this.pushed.redeem(requestUri, client.clientId, progress.resumed === true) : parameters;
      target = responseTarget(input, resolveRedirectUri(input, client));
      // RFC 9126 §6.
      if (!requestUri && client.requirePushedAuthorizationRequests) throw OAuthError.invalidRequest('this client must push its authorization requests');
      const request = validateAuthorizationRequest(input, client, target, this.resources.catalog);
      if (!requestUri) return await next(request, carriedParameters(input, progress));
      // The pages carry only client_id and request_uri; what a sign-in satisfied is kept with the pushed request.
      if (progress.signedInNow) await this.pushed.keep(requestUri, carriedParameters(input, progress));
      return await next({ ...request, requestUri }, { client_id: client.clientId, request_uri: requestUri });
    } catch (error) {
      if (error instanceof UntrustedRedirectError) return { kind: 'error_page', description: error.message };
      if (error instanceof OAuthError && !target && error.code === 'invalid_request_uri') return { kind: 'error_page', description: error.message };
      if (error instanceof OAuthError && target && error.status < 500) return errorResponse(target, error, this.config.issuer);
      throw error;
    }
  }

  private async decide(
    request: AuthorizationRequest,
    carried: CarriedParameters,
    session: SignInSession | undefined,
    progress: InteractionProgress,
  ): Promise<AuthorizationOutcome> {
    const user = session && (await this.users.findBySubjectId(session.subject));
    if (!session || !user?.enabled || (!progress.signedInNow && mustSignInAgain(request, session))) {
      if (request.prompts.has('none')) throw OAuthError.loginRequired('the user must sign in');
      return { kind: 'login', request, carried };
    }
    if (!meetsRequirement(acrOf(session.authenticationMethods), request.acrRequirement)) return this.stepUp(request, carried, session);
    const toAsk = progress.consented ? [] : await this.scopesToAsk(request, session);
    if (toAsk.length > 0) {
      if (request.prompts.has('none')) throw OAuthError.consentRequired('the user must consent');
      return { kind: 'consent', request, carried, session, scopes: toAsk };
    }
    if (request.requestUri !== undefined && !(await this.pushed.consume(request.requestUri, request.client.clientId))) {
      throw OAuthError.invalidRequestUri('the request_uri was used already');
    }
    const code = await this.codes.issue(
      {
        clientId: request.client.clientId,
        redirectUri: request.redirectUri,
        redirectUriSent: request.redirectUriSent,
        codeChallenge: request.codeChallenge,
        nonce: request.nonce,
        scopes: request.scopes,
        resources: request.resources,
        dpopJkt: request.dpopJkt,
      },
      session,
    );
    return respond(request, { code }, this.config.issuer);
  }

  /** RFC 9470 §4: a passkey for a user who has one; `unmet_authentication_requirements` for one who has none. */
  private async stepUp(request: AuthorizationRequest, carried: CarriedParameters, session: SignInSession): Promise<AuthorizationOutcome> {
    if ((await this.passkeys.countOf(session.subject)) === 0) {
      throw OAuthError.unmetAuthenticationRequirements('the request needs a passkey sign-in and the user has no passkey');
    }
    if (request.prompts.has('none')) throw OAuthError.loginRequired('the user must sign in with a passkey');
    return { kind: 'step_up', request, carried, session };
  }

  /**
   * The scopes the consent page asks for: none, or those the user has not allowed this client yet (a
   * client back with the union of its scopes after `insufficient_scope` is asked only for the new
   * ones), or all of them with `prompt=consent` and for clients asked every time.
   */
  private async scopesToAsk(request: AuthorizationRequest, session: SignInSession): Promise<readonly string[]> {
    if (!request.client.requireConsent) return [];
    if (request.prompts.has('consent') || request.client.consentEveryTime) return request.scopes;
    const allowed = await this.consents.findScopes(session.subject, request.client.clientId);
    return request.scopes.filter((scope) => !allowed.includes(scope));
  }
}

/** OpenID Connect Core §3.1.2.1: `prompt=login`, or an authentication older than `max_age`. */
function mustSignInAgain(request: AuthorizationRequest, session: SignInSession): boolean {
  if (request.prompts.has('login')) return true;
  return request.maxAge !== undefined && Math.floor(Date.now() / 1000) - session.authTime > request.maxAge;
}

/**
 * The request's parameters for the next page's hidden fields. Once the user has signed in on the
 * login page, `prompt=login` and `max_age` are satisfied and no longer carried, so that the consent
 * page does not send the user back to sign in.
 */
function carriedParameters(parameters: AuthorizationInput, progress: InteractionProgress): CarriedParameters {
  const carried: Record<string, string> = {};
  for (const name of AUTHORIZATION_PARAMETERS) {
    const value = carriedValue(parameters.sent[name]);
    if (value !== undefined && name !== 'request' && name !== 'request_uri') carried[name] = value;
  }
  if (progress.signedInNow) {
    delete carried.max_age;
    const prompt = (carried.prompt ?? '').split(' ').filter((value) => value !== 'login' && value !== '');
    if (prompt.length > 0) carried.prompt = prompt.join(' ');
    else delete carried.prompt;
  }
  return carried;
}
