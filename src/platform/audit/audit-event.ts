/** Security-relevant events, one structured record each, with a stable name. Never secrets or tokens. */
export type AuditEvent =
  | {
      readonly name: 'token.issued';
      readonly grantType: string;
      readonly clientId: string;
      readonly subject?: string;
      readonly scopes: readonly string[];
      /** The `act` chain, latest actor first. */
      readonly actors?: readonly string[];
      /** Absent for tokens that are not access tokens (transaction tokens). */
      readonly jwtId?: string;
      /** RFC 8693 `issued_token_type` when it is not an access token. */
      readonly tokenType?: string;
      /** The `txn` of a transaction token. */
      readonly transactionId?: string;
      /** The trusted external issuer of the subject token. */
      readonly subjectIssuer?: string;
    }
  | { readonly name: 'token.request_failed'; readonly grantType?: string; readonly clientId?: string; readonly error: string }
  | {
      readonly name: 'user.sign_in_failed';
      readonly username: string;
      readonly clientId: string;
      readonly address: string;
      readonly reason: 'invalid_credentials' | 'back_off';
    }
  | { readonly name: 'client.authentication_failed'; readonly clientId?: string; readonly method?: string; readonly address: string; readonly error: string }
  | { readonly name: 'refresh_token.reuse_detected'; readonly clientId: string; readonly subject: string; readonly familyId: string }
  | {
      readonly name: 'token.revoked';
      readonly clientId: string;
      readonly tokenType: 'access_token' | 'refresh_token';
      readonly jwtId?: string;
      readonly familyId?: string;
    }
  | { readonly name: 'authorization_code.reuse_detected'; readonly clientId: string; readonly subject: string }
  | { readonly name: 'user.signed_in'; readonly clientId: string; readonly subject: string; readonly address: string; readonly acr?: string }
  /** docs/passkeys.md: a passkey sign-in that did not verify (unknown credential, bad signature, used challenge). */
  | { readonly name: 'user.passkey_sign_in_failed'; readonly clientId: string; readonly address: string }
  | { readonly name: 'passkey.added' | 'passkey.removed'; readonly subject: string }
  | { readonly name: 'user.signed_out'; readonly subject?: string }
  /** RFC 8628 §3.3: a user allowed or denied a device on the verification page. */
  | { readonly name: 'device_authorization.answered'; readonly clientId: string; readonly subject: string; readonly approved: boolean }
  | { readonly name: 'signing_key.rotated'; readonly kid: string; readonly algorithm: string; readonly activatesAt?: string }
  /** docs/signals.md: a session an operator ended, or ended because its user was disabled (logout is `user.signed_out`). */
  | { readonly name: 'session.ended'; readonly subject: string; readonly sessionId: string; readonly reason: 'operator' | 'user_disabled' }
  /** docs/signals.md: the deliveries an event put in the outbox (logout tokens, SETs to Shared Signals receivers). */
  | {
      readonly name: 'signal.queued';
      readonly event: 'session_ended' | 'sessions_revoked' | 'credential_changed' | 'verification';
      readonly subject?: string;
      readonly logoutTokens: number;
      readonly securityEvents: number;
    }
  /** A logout token or SET the receiver accepted; `jwtId` is the token's `jti`. */
  | { readonly name: 'signal.delivered'; readonly kind: string; readonly clientId: string; readonly jwtId: string; readonly attempts: number }
  /** An attempt that failed and will be retried (`retryInSeconds`), or a delivery given up (`dropped`: expired, rejected, undeliverable). */
  | {
      readonly name: 'signal.delivery_failed';
      readonly kind: string;
      readonly clientId: string;
      readonly jwtId?: string;
      readonly attempts: number;
      readonly error: string;
      readonly retryInSeconds?: number;
      readonly dropped?: 'expired' | 'rejected' | 'undeliverable';
    }
  /** SSF 1.0 §8.1: a receiver created, changed, deleted its stream or set its status. */
  | {
      readonly name: 'ssf.stream_changed';
      readonly clientId: string;
      readonly streamId: string;
      readonly action: 'created' | 'updated' | 'deleted' | 'status';
      readonly status?: string;
    };

/** Where audit events go; also the DI token. The default writes JSON lines with pino. */
export abstract class AuditSink {
  abstract emit(event: AuditEvent): void;
}
