import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { SsfStream, StreamSettings, StreamStatus } from '../ssf-stream';
import { SsfStreamRepository } from '../ssf-stream.repository';
import { KEY_ENCRYPTION_KEYRING } from '../../../platform/key-encryption/key-encryption-key';
import type { KeyEncryptionKeyring } from '../../../platform/key-encryption/private-key-sealing';
import { SsfStreamEntity } from './ssf-stream.entity';
import { openAuthorizationHeader, sealAuthorizationHeader } from './stream-authorization-header';

type Rows<T> = [T[], number];

@Injectable()
export class TypeOrmSsfStreamRepository extends SsfStreamRepository {
  constructor(
    @InjectRepository(SsfStreamEntity) private readonly streams: Repository<SsfStreamEntity>,
    @Inject(KEY_ENCRYPTION_KEYRING) private readonly keyring: KeyEncryptionKeyring,
  ) {
    super();
  }

  async findByClient(clientId: string): Promise<SsfStream | undefined> {
    const entity = await this.streams.findOneBy({ clientId });
    return entity ? this.toStream(entity) : undefined;
  }

  async list(): Promise<SsfStream[]> {
    return (await this.streams.find({ order: { clientId: 'ASC' } })).map((entity) => this.toStream(entity));
  }

  async create(streamId: string, clientId: string, settings: StreamSettings): Promise<boolean> {
    // Raw SQL: INSERT … ON CONFLICT DO NOTHING RETURNING, so that of concurrent creations one wins and the others learn it.
    const rows: unknown[] = await this.streams.query(
      `INSERT INTO ssf_streams (stream_id, client_id, endpoint_url, authorization_header, events_requested, events_delivered, description)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (client_id) DO NOTHING RETURNING stream_id`,
      [streamId, clientId, ...this.columns(streamId, settings)],
    );
    return rows.length === 1;
  }

  async update(streamId: string, settings: StreamSettings): Promise<void> {
    const [endpointUrl, authorizationHeader, eventsRequested, eventsDelivered, description] = this.columns(streamId, settings);
    await this.streams.update({ streamId }, { endpointUrl, authorizationHeader, eventsRequested, eventsDelivered, description });
  }

  async delete(streamId: string): Promise<void> {
    await this.streams.delete({ streamId });
  }

  async setStatus(streamId: string, status: StreamStatus, reason: string | undefined): Promise<void> {
    await this.streams.update({ streamId }, { status, statusReason: reason ?? null });
  }

  async recordVerification(streamId: string, minIntervalSeconds: number): Promise<boolean> {
    // Raw SQL: a conditional UPDATE … RETURNING against the database clock; of requests within the interval, one passes.
    const [rows] = (await this.streams.query(
      `UPDATE ssf_streams SET last_verification_at = now()
        WHERE stream_id = $1 AND (last_verification_at IS NULL OR last_verification_at <= now() - make_interval(secs => $2::float8))
       RETURNING stream_id`,
      [streamId, minIntervalSeconds],
    )) as Rows<unknown>;
    return rows.length === 1;
  }

  private columns(streamId: string, settings: StreamSettings): [string, string | null, string[], string[], string | null] {
    return [
      settings.endpointUrl,
      sealAuthorizationHeader(settings.authorizationHeader, streamId, this.keyring),
      [...settings.eventsRequested],
      [...settings.eventsDelivered],
      settings.description ?? null,
    ];
  }

  private toStream(entity: SsfStreamEntity): SsfStream {
    const authorizationHeader = openAuthorizationHeader(entity.authorizationHeader, entity.streamId, this.keyring);
    return {
      streamId: entity.streamId,
      clientId: entity.clientId,
      endpointUrl: entity.endpointUrl,
      ...(authorizationHeader === undefined ? {} : { authorizationHeader }),
      eventsRequested: entity.eventsRequested,
      eventsDelivered: entity.eventsDelivered,
      ...(entity.description === null ? {} : { description: entity.description }),
      status: entity.status,
      ...(entity.statusReason === null ? {} : { statusReason: entity.statusReason }),
      ...(entity.lastVerificationAt === null ? {} : { lastVerificationAt: entity.lastVerificationAt }),
      createdAt: entity.createdAt,
      updatedAt: entity.updatedAt,
    };
  }
}
