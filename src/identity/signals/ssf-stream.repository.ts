import type { SsfStream, StreamSettings, StreamStatus } from './ssf-stream';

/** Where receivers' streams are stored; also the DI token. */
export abstract class SsfStreamRepository {
  abstract findByClient(clientId: string): Promise<SsfStream | undefined>;
  abstract list(): Promise<SsfStream[]>;
  /** False when the client has a stream already (SSF 1.0 §8.1.1.1: 409). */
  abstract create(streamId: string, clientId: string, settings: StreamSettings): Promise<boolean>;
  abstract update(streamId: string, settings: StreamSettings): Promise<void>;
  abstract delete(streamId: string): Promise<void>;
  abstract setStatus(streamId: string, status: StreamStatus, reason: string | undefined): Promise<void>;
  /** Records a verification request; false when the last one was less than `minIntervalSeconds` ago. */
  abstract recordVerification(streamId: string, minIntervalSeconds: number): Promise<boolean>;
}
