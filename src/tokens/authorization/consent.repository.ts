/** Consents users gave to clients, remembered per user, client and scopes; also the DI token. */
export abstract class ConsentRepository {
  /** The scopes the user has allowed the client, empty when none. */
  abstract findScopes(subject: string, clientId: string): Promise<readonly string[]>;
  /** Adds scopes to what the user allowed the client. */
  abstract allow(subject: string, clientId: string, scopes: readonly string[]): Promise<void>;
}
