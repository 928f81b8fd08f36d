import type { RegisteredClientRecord } from './client-registration';

/** A stored registration, as RFC 7592 reads it back. */
export interface StoredRegistration {
  readonly clientId: string;
  readonly registration: Readonly<Record<string, unknown>>;
  readonly registrationAccessTokenHash: string;
  readonly issuedAt: Date;
}

/** Dynamically registered clients (RFC 7591, RFC 7592); also the DI token. */
export abstract class RegisteredClientRepository {
  /** Stores a new client with the hashes of its secret (when it has one) and registration access token. */
  abstract create(record: RegisteredClientRecord, hashes: { readonly secret?: string; readonly registrationAccessToken: string }): Promise<Date>;
  abstract find(clientId: string): Promise<StoredRegistration | undefined>;
  abstract update(record: RegisteredClientRecord): Promise<void>;
  abstract delete(clientId: string): Promise<void>;
  /** Removes self-registered clients unused since `before` (with their codes, tokens and consents); returns how many. */
  abstract purgeUnused(before: Date): Promise<number>;
}

/** An initial access token as operators see it: never the token or its hash. */
export interface InitialAccessTokenInfo {
  readonly id: string;
  readonly description: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

/** Initial access tokens an operator created (RFC 7591 §3), stored as hashes; also the DI token. */
export abstract class InitialAccessTokenRepository {
  /** Whether a token with this hash exists and has not expired. */
  abstract isValid(tokenHash: string): Promise<boolean>;
  abstract create(tokenHash: string, description: string | undefined, expiresAt: Date | undefined): Promise<InitialAccessTokenInfo>;
  abstract list(): Promise<InitialAccessTokenInfo[]>;
  /** Returns whether a token with this id existed. */
  abstract revoke(id: string): Promise<boolean>;
}
