import type { Client } from './client';

/** Where clients are stored; also the DI token. */
export abstract class ClientRepository {
  abstract findById(clientId: string): Promise<Client | undefined>;
}
