import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { PENDING_LIMITS, pendingRequestOrigin, tooManyPending } from '../../platform/rate-limit/pending-requests';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { singleParameter, type FormBody } from '../../protocol/form';
import { readAcrRequirement } from '../../protocol/acr-request';
import { OAuthError } from '../../protocol/oauth-error';
import { generateHandle, hashHandle, isHandle } from '../../protocol/opaque-handle';
import { resolveRequestedScopes } from '../../protocol/scope';
import { ResourceStore } from '../../identity/resources/resource.store';
import {
  DEVICE_CODE_GRANT_TYPE,
  DEVICE_CODE_LIFETIME_SECONDS,
  POLLING_INTERVAL_SECONDS,
  decidePoll,
  type DeviceApproval,
  type DeviceAuthorization,
  type DeviceAuthorizationResponse,
} from './device-authorization';
import { DeviceAuthorizationRepository } from './device-authorization.repository';
import { formatUserCode, generateUserCode, normaliseUserCode } from './user-code';

/** The verification page's path under the issuer (docs/device-authorization.md). */
export const VERIFICATION_PATH = '/connect/device';
// Drawing a taken user code again is rare (codes live 10 minutes among 20⁸); a few tries suffice.
const USER_CODE_ATTEMPTS = 5;
// Expired requests are kept a while so that a late poll is told `expired_token`, not `invalid_grant`.
const KEEP_EXPIRED_MS = 60 * 60_000;

/**
 * The device authorization grant (RFC 8628): requests started by a device, answered by a user on
 * the verification page, polled for and redeemed once at the token endpoint.
 */
@Injectable()
export class DeviceAuthorizationService {
  private readonly verificationUri: string;

  constructor(
    private readonly repository: DeviceAuthorizationRepository,
    private readonly resources: ResourceStore,
    @Inject(issuerConfig.KEY) config: ConfigType<typeof issuerConfig>,
  ) {
    this.verificationUri = `${config.issuer}${VERIFICATION_PATH}`;
  }

  /**
   * RFC 8628 §3.1–3.2: a device code of 256 random bits (only its hash is stored) and a user code.
   * Pending requests are bounded per client, and anonymous ones (a public client's, which anyone can
   * start) per address too: more are a 429 (docs/throttling.md#pending-requests).
   */
  async start(body: FormBody, { client, method }: AuthenticatedClient, address: string, now = new Date()): Promise<DeviceAuthorizationResponse> {
    if (!client.allowedGrantTypes.includes(DEVICE_CODE_GRANT_TYPE))
      throw OAuthError.unauthorizedClient('the client may not use the device authorization grant');
    const scopes = resolveRequestedScopes(singleParameter(body, 'scope'), client.allowedScopes, (scope) => this.resources.catalog.isKnownScope(scope));
    const requestedFrom = pendingRequestOrigin(address, method !== 'none');
    const full = await this.repository.fullFor(client.clientId, requestedFrom, PENDING_LIMITS, now);
    if (full) throw tooManyPending(full, 'temporarily_unavailable', 'device authorizations');
    // docs/passkeys.md#step-up: `acr_values` asks the approving sign-in for a passkey, as at the authorization endpoint.
    const acrValues = readAcrRequirement({ acrValues: singleParameter(body, 'acr_values') });
    const deviceCode = generateHandle();
    const expiresAt = new Date(now.getTime() + DEVICE_CODE_LIFETIME_SECONDS * 1000);
    for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt++) {
      const userCode = generateUserCode();
      const request = {
        deviceCodeHash: hashHandle(deviceCode),
        userCode,
        clientId: client.clientId,
        scopes: scopes.names,
        acrValues,
        intervalSeconds: POLLING_INTERVAL_SECONDS,
        expiresAt,
        requestedFrom,
      };
      if (await this.repository.add(request)) {
        const shown = formatUserCode(userCode);
        return {
          device_code: deviceCode,
          user_code: shown,
          verification_uri: this.verificationUri,
          verification_uri_complete: `${this.verificationUri}?${new URLSearchParams({ user_code: shown }).toString()}`,
          expires_in: DEVICE_CODE_LIFETIME_SECONDS,
          interval: POLLING_INTERVAL_SECONDS,
        };
      }
    }
    throw OAuthError.temporarilyUnavailable();
  }

  /** The pending, unexpired request a typed user code names, if any. */
  async findPending(typed: string, now = new Date()): Promise<DeviceAuthorization | undefined> {
    const userCode = normaliseUserCode(typed);
    return userCode === undefined ? undefined : this.repository.findPendingByUserCode(userCode, now);
  }

  /** The user's answer on the verification page: false when the request was answered already or expired. */
  answer(authorization: DeviceAuthorization, approval: DeviceApproval | undefined, now = new Date()): Promise<boolean> {
    return this.repository.answer(authorization.userCode, approval, now);
  }

  /**
   * RFC 8628 §3.4–3.5: a poll of the token endpoint. The approved request of the client's device
   * code, redeemed by this call and no other; otherwise the RFC's error (docs/device-authorization.md: an unknown or
   * used code is `invalid_grant`).
   */
  async redeem(deviceCode: string, clientId: string, now = new Date()): Promise<DeviceAuthorization & { approval: DeviceApproval }> {
    const hash = isHandle(deviceCode) ? hashHandle(deviceCode) : undefined;
    const authorization = hash === undefined ? undefined : await this.repository.findByDeviceCode(hash, clientId);
    if (hash === undefined || authorization === undefined) throw OAuthError.invalidGrant('the device code is invalid');
    const decision = decidePoll(authorization, now);
    if (decision.kind === 'refuse') {
      if (decision.error === 'authorization_pending') await this.repository.recordPoll(hash, now, authorization.intervalSeconds);
      throw new OAuthError(decision.error, decision.description);
    }
    if (decision.kind === 'slow_down') {
      await this.repository.recordPoll(hash, now, decision.intervalSeconds);
      throw new OAuthError('slow_down', `poll at most every ${decision.intervalSeconds} seconds`);
    }
    const { approval } = authorization;
    if (!approval || !(await this.repository.redeem(hash, now))) throw OAuthError.invalidGrant('the device code has been used already');
    return { ...authorization, approval };
  }

  purge(now = new Date()): Promise<number> {
    return this.repository.deleteExpiredBefore(new Date(now.getTime() - KEEP_EXPIRED_MS));
  }
}
