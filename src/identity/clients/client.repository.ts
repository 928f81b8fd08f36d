import type { Client } from './client';

/** Where clients are stored; also the DI token. */
export abstract class ClientRepository {
  abstract findById(clientId: string): Promise<Client | undefined>;
  /** The client bound to a workload identity (the binding is unique per issuer and subject). */
  abstract findClientIdByWorkloadIdentity(issuer: string, subject: string): Promise<string | undefined>;
  /** Every redirect URI registered by an enabled client (for CORS). */
  abstract findAllRedirectUris(): Promise<string[]>;
  /** A metadata document's client was fetched: its row (anchoring its codes, tokens and consents) exists and is marked used now. */
  abstract recordMetadataDocumentClient(clientId: string): Promise<void>;
}
