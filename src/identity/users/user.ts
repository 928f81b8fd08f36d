/** A user as the protocol sees it. `claims` holds the OIDC Core §5.1 standard claims the user has. */
export interface User {
  readonly subjectId: string;
  readonly username: string;
  readonly passwordHash: string;
  readonly enabled: boolean;
  readonly claims: Readonly<Record<string, unknown>>;
  readonly roles: readonly string[];
  /** Absent when the stored value is not a finite time. */
  readonly updatedAt?: Date;
}
