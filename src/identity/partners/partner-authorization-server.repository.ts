import type { PartnerAuthorizationServer } from './partner-authorization-server';

/** Where partner authorization servers are stored; also the DI token. */
export abstract class PartnerAuthorizationServerRepository {
  /** The enabled partner with this issuer, or undefined. */
  abstract findByIssuer(issuer: string): Promise<PartnerAuthorizationServer | undefined>;
  /** Whether any enabled partner knows this client of ours. */
  abstract knowsClient(clientId: string): Promise<boolean>;
}
