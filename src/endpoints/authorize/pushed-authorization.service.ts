import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { PENDING_LIMITS, pendingRequestOrigin, tooManyPending } from '../../platform/rate-limit/pending-requests';
import type { FormBody } from '../../protocol/form';
import { inspectParameters } from '../../protocol/inspected-parameters';
import { OAuthError } from '../../protocol/oauth-error';
import { generateHandle, hashHandle, isHandle } from '../../protocol/opaque-handle';
import { ResourceStore } from '../../identity/resources/resource.store';
import { DpopProofVerifier, type DpopHeader } from '../../tokens/dpop/dpop-proof.verifier';
import { AuthorizationParameters, type AuthorizationInput } from './authorization-parameters';
import {
  PUSHED_REQUEST_INTERACTION_SECONDS,
  PUSHED_REQUEST_LIFETIME_SECONDS,
  REQUEST_URI_PREFIX,
  bindToProofKey,
  validatePushedRequest,
  type PushedAuthorizationResponse,
  type PushedParameters,
} from './pushed-authorization-request';
import { PushedAuthorizationRequestRepository } from './pushed-authorization-request.repository';

/**
 * Pushed authorization requests (RFC 9126, docs/browser-sign-in.md#pushed-authorization-requests--post-connectpar):
 * stored when pushed, used once at the authorization endpoint, used up when a code is issued.
 */
@Injectable()
export class PushedAuthorizationService {
  constructor(
    private readonly repository: PushedAuthorizationRequestRepository,
    private readonly resources: ResourceStore,
    @Inject(DpopProofVerifier) private readonly dpop: Pick<DpopProofVerifier, 'forPushedRequest'>,
  ) {}

  /**
   * RFC 9126 §2: validates and stores the request; its `request_uri` has 256 random bits, only their
   * hash is stored. Pending ones are bounded per client, and anonymous ones (a public client's, which
   * anyone can push) per address too: more are a 429 (RFC 9126 §2.3, docs/throttling.md#pending-requests).
   * A DPoP proof sent with it is checked once the request is valid (RFC 9449 §10.1).
   */
  async push(
    body: FormBody,
    { client, method }: AuthenticatedClient,
    address: string,
    dpopProof: DpopHeader = undefined,
    now = new Date(),
  ): Promise<PushedAuthorizationResponse> {
    const valid = validatePushedRequest(inspectParameters(AuthorizationParameters, body), client, this.resources.catalog);
    const parameters = bindToProofKey(valid, await this.dpop.forPushedRequest(dpopProof));
    const handle = generateHandle();
    const full = await this.repository.add(
      {
        requestUriHash: hashHandle(handle),
        clientId: client.clientId,
        parameters,
        expiresAt: new Date(now.getTime() + PUSHED_REQUEST_LIFETIME_SECONDS * 1000),
        requestedFrom: pendingRequestOrigin(address, method !== 'none'),
      },
      PENDING_LIMITS,
      now,
    );
    if (full) throw tooManyPending(full, 'invalid_request', 'pushed requests');
    return { request_uri: `${REQUEST_URI_PREFIX}${handle}`, expires_in: PUSHED_REQUEST_LIFETIME_SECONDS };
  }

  /**
   * The pushed request a `request_uri` names, for the client it was pushed by: at the authorization
   * endpoint only once (`resumed` false), then from the login and consent pages until a code is
   * issued. Anything else is `invalid_request_uri` (RFC 9126 §4).
   */
  async redeem(requestUri: string, clientId: string, resumed: boolean, now = new Date()): Promise<AuthorizationInput> {
    const hash = requestUriHash(requestUri);
    const until = new Date(now.getTime() + PUSHED_REQUEST_INTERACTION_SECONDS * 1000);
    const parameters =
      hash === undefined
        ? undefined
        : resumed
          ? await this.repository.findClaimed(hash, clientId, now)
          : await this.repository.claim(hash, clientId, now, until);
    if (parameters === undefined) throw OAuthError.invalidRequestUri('the request_uri is unknown, expired or used');
    return inspectParameters(AuthorizationParameters, parameters);
  }

  /** What the request has become through the pages (prompt=login satisfied by a sign-in). */
  async keep(requestUri: string, parameters: PushedParameters): Promise<void> {
    const hash = requestUriHash(requestUri);
    if (hash !== undefined) await this.repository.replaceParameters(hash, parameters);
  }

  /** Uses the request up as a code is issued: true for exactly one caller. */
  async consume(requestUri: string, clientId: string, now = new Date()): Promise<boolean> {
    const hash = requestUriHash(requestUri);
    return hash !== undefined && (await this.repository.consume(hash, clientId, now));
  }

  purge(now = new Date()): Promise<number> {
    return this.repository.deleteExpiredBefore(now);
  }
}

function requestUriHash(requestUri: string): string | undefined {
  const handle = requestUri.slice(REQUEST_URI_PREFIX.length);
  return requestUri.startsWith(REQUEST_URI_PREFIX) && isHandle(handle) ? hashHandle(handle) : undefined;
}
