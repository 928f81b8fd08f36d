import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuditSink } from '../../platform/audit/audit-event';
import type { ConfigType } from '../../platform/config/config-slice';
import { signalsConfig } from '../../platform/config/config.slices';
import { OAuthError } from '../../protocol/oauth-error';
import { ClientStore } from '../../identity/clients/client.store';
import { SECURITY_EVENT_DELIVERY_SECONDS } from '../../identity/signals/outbox-security-events';
import { VERIFICATION_EVENT, verificationClaims } from '../../identity/signals/security-event-types';
import { SignalOutboxRepository } from '../../identity/signals/signal-outbox.repository';
import { SSF_SCOPE } from '../../identity/signals/ssf-scope';
import { STREAM_STATUSES, type SsfStream, type StreamStatus } from '../../identity/signals/ssf-stream';
import { SsfStreamRepository } from '../../identity/signals/ssf-stream.repository';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { MIN_VERIFICATION_INTERVAL_SECONDS, streamConfiguration, transmitterValues, type StreamConfiguration } from './stream-configuration';
import { bodyStreamId, optionalText, readStreamSettings, type StreamChange } from './stream-request';

export interface StreamStatusResponse {
  readonly stream_id: string;
  readonly status: StreamStatus;
  readonly reason?: string;
}

/**
 * The stream management API of the SSF 1.0 transmitter (§8.1; docs/signals.md#receivers): a receiver,
 * a client allowed `ssf` presenting its own `client_credentials` token, creates, reads, changes and
 * deletes its one stream, reads and sets its status, and asks for verification events. Another client's
 * stream is never found: its `stream_id` is 404 to everyone else.
 */
@Injectable()
export class SsfStreamService {
  private readonly allowLoopbackHttp: boolean;

  constructor(
    @Inject(SsfStreamRepository) private readonly streams: SsfStreamRepository,
    @Inject(SignalOutboxRepository) private readonly outbox: Pick<SignalOutboxRepository, 'addStreamEvent' | 'deleteForStream'>,
    @Inject(ClientStore) private readonly clients: Pick<ClientStore, 'find'>,
    @Inject(signalsConfig.KEY) private readonly config: ConfigType<typeof signalsConfig>,
    private readonly audit: AuditSink,
  ) {
    this.allowLoopbackHttp = new URL(config.issuer).protocol === 'http:';
  }

  async create(token: ValidatedAccessToken, body: Record<string, unknown>): Promise<StreamConfiguration> {
    const receiver = await this.receiver(token);
    const settings = readStreamSettings(body, 'create', undefined, undefined, this.allowLoopbackHttp);
    const streamId = randomBytes(16).toString('base64url');
    // SSF 1.0 §8.1.1.1: one stream per receiver here; a second is 409.
    if (!(await this.streams.create(streamId, receiver, settings))) throw OAuthError.invalidRequest('the receiver has a stream already', { status: 409 });
    this.changed(receiver, streamId, 'created');
    return streamConfiguration(this.config.issuer, (await this.streams.findByClient(receiver))!);
  }

  /** SSF 1.0 §8.1.1.2: without `stream_id`, the list of the receiver's streams (one or none). */
  async read(token: ValidatedAccessToken, streamId: string | undefined): Promise<StreamConfiguration | StreamConfiguration[]> {
    const receiver = await this.receiver(token);
    if (streamId === undefined) {
      const stream = await this.streams.findByClient(receiver);
      return stream ? [streamConfiguration(this.config.issuer, stream)] : [];
    }
    return streamConfiguration(this.config.issuer, await this.own(receiver, streamId));
  }

  async change(token: ValidatedAccessToken, body: Record<string, unknown>, change: Exclude<StreamChange, 'create'>): Promise<StreamConfiguration> {
    const receiver = await this.receiver(token);
    const stream = await this.own(receiver, bodyStreamId(body));
    const settings = readStreamSettings(body, change, stream, transmitterValues(this.config.issuer, stream), this.allowLoopbackHttp);
    await this.streams.update(stream.streamId, settings);
    this.changed(receiver, stream.streamId, 'updated');
    return streamConfiguration(this.config.issuer, { ...stream, ...settings });
  }

  async delete(token: ValidatedAccessToken, streamId: string | undefined): Promise<void> {
    const receiver = await this.receiver(token);
    const stream = await this.own(receiver, required(streamId));
    await this.streams.delete(stream.streamId);
    this.changed(receiver, stream.streamId, 'deleted');
  }

  async status(token: ValidatedAccessToken, streamId: string | undefined): Promise<StreamStatusResponse> {
    const stream = await this.own(await this.receiver(token), required(streamId));
    return statusOf(stream.streamId, stream.status, stream.statusReason);
  }

  /** SSF 1.0 §8.1.2.2: paused holds the stream's events until it is enabled again; disabled drops them and sends none. */
  async setStatus(token: ValidatedAccessToken, body: Record<string, unknown>): Promise<StreamStatusResponse> {
    const receiver = await this.receiver(token);
    const stream = await this.own(receiver, bodyStreamId(body));
    const status = body.status;
    if (typeof status !== 'string' || !STREAM_STATUSES.includes(status as StreamStatus))
      throw OAuthError.invalidRequest('status must be enabled, paused or disabled');
    const reason = optionalText(body, 'reason');
    await this.streams.setStatus(stream.streamId, status as StreamStatus, reason);
    if (status === 'disabled') await this.outbox.deleteForStream(stream.streamId);
    this.changed(receiver, stream.streamId, 'status', status);
    return statusOf(stream.streamId, status as StreamStatus, reason);
  }

  /** SSF 1.0 §8.1.4.2: answered 204 at once; the event follows through the outbox, like any other. */
  async verify(token: ValidatedAccessToken, body: Record<string, unknown>): Promise<void> {
    const receiver = await this.receiver(token);
    const stream = await this.own(receiver, bodyStreamId(body));
    const state = optionalText(body, 'state');
    if (!(await this.streams.recordVerification(stream.streamId, MIN_VERIFICATION_INTERVAL_SECONDS))) {
      throw OAuthError.invalidRequest(`at most one verification request per ${MIN_VERIFICATION_INTERVAL_SECONDS} s`, {
        status: 429,
        retryAfterSeconds: MIN_VERIFICATION_INTERVAL_SECONDS,
      });
    }
    if (stream.status === 'disabled') return;
    await this.outbox.addStreamEvent(
      stream.streamId,
      receiver,
      VERIFICATION_EVENT,
      verificationClaims(stream.streamId, state),
      SECURITY_EVENT_DELIVERY_SECONDS,
    );
    this.audit.emit({ name: 'signal.queued', event: 'verification', logoutTokens: 0, securityEvents: 1 });
  }

  /** The receiver a token stands for: a `client_credentials` token with `ssf` of a client still allowed `ssf` (docs/signals.md#receivers). */
  private async receiver(token: ValidatedAccessToken): Promise<string> {
    if (token.subject !== undefined) throw OAuthError.invalidToken("the access token must be the receiver's own (client_credentials), not a user's");
    if (!token.scopes.includes(SSF_SCOPE)) throw OAuthError.insufficientScope('the access token lacks the ssf scope', SSF_SCOPE);
    const client = await this.clients.find(token.clientId);
    if (!client?.enabled || !client.allowedScopes.includes(SSF_SCOPE))
      throw OAuthError.insufficientScope('the client is not a Shared Signals receiver', SSF_SCOPE);
    return client.clientId;
  }

  private async own(receiver: string, streamId: string): Promise<SsfStream> {
    const stream = await this.streams.findByClient(receiver);
    if (!stream || stream.streamId !== streamId) throw OAuthError.invalidRequest('no stream with this stream_id for this receiver', { status: 404 });
    return stream;
  }

  private changed(clientId: string, streamId: string, action: 'created' | 'updated' | 'deleted' | 'status', status?: string): void {
    this.audit.emit({ name: 'ssf.stream_changed', clientId, streamId, action, ...(status === undefined ? {} : { status }) });
  }
}

function required(streamId: string | undefined): string {
  if (streamId === undefined || streamId === '') throw OAuthError.invalidRequest('the stream_id query parameter is required');
  return streamId;
}

function statusOf(streamId: string, status: StreamStatus, reason: string | undefined): StreamStatusResponse {
  return { stream_id: streamId, status, ...(reason === undefined ? {} : { reason }) };
}
