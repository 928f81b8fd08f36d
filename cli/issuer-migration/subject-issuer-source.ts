import { literal } from '../client-migration/settings-history';
import type { SubjectIssuerChanges } from './subject-issuer-arguments';

/** The parts of a generated migration that differ by request. */
export interface MigrationBody {
  readonly summary: string;
  readonly up: readonly string[];
  readonly down: readonly string[];
}

/**
 * The identity scopes and trusting clients a subject issuer names must exist when the migration
 * runs (they live in the database, not in the generator's reach); otherwise `up` stops, naming them.
 */
export function requireKnown({ identityScopes = [], trustedBy }: Pick<SubjectIssuerChanges, 'identityScopes' | 'trustedBy'>): string[] {
  const check = (values: readonly string[], what: string, query: string, missing: string) =>
    values.length === 0
      ? []
      : [
          `const known${what} = (await queryRunner.query('${query} = ANY($1)', [${literal(values)}])).map((row: { name: string }) => row.name);`,
          `const unknown${what} = ${literal(values)}.filter((name) => !known${what}.includes(name));`,
          `if (unknown${what}.length > 0) throw new Error(${literal(`${missing}: `)} + unknown${what}.join(', '));`,
        ];
  return [
    ...check(identityScopes, 'Scopes', 'SELECT name FROM identity_resources WHERE name', 'Not identity scopes of this server'),
    ...check(trustedBy, 'Clients', 'SELECT client_id AS name FROM clients WHERE client_id', 'No such clients to trust the issuer'),
  ];
}

export { literal } from '../client-migration/settings-history';
