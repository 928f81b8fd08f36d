import type { IssuerMigrationRequest } from './issuer-migration-arguments';
import type { SubjectIssuerChanges } from './subject-issuer-arguments';

/** The parts of a generated migration that differ by request. */
export interface MigrationBody {
  readonly summary: string;
  readonly up: readonly string[];
  readonly down: readonly string[];
}

// The subject-issuer settings a change may replace, by column.
const SETTING_COLUMNS = { audience: 'subject_audience', userClaim: 'subject_user_claim', identityScopes: 'subject_identity_scopes' } as const;

/**
 * `--subject <registered issuer>` without keys: replaces the settings given and adds the trusting
 * clients, after recording in `trusted_issuer_settings_before_migration` what it replaces and which
 * clients it added, so that `down` restores exactly that (not a default, and not the clients that
 * trusted the issuer already).
 */
export function renderSubjectIssuerChange(request: Extract<IssuerMigrationRequest, { kind: 'change-subject' }>, migration: string): MigrationBody {
  const { changes } = request;
  const issuer = literal(request.issuer);
  const key = literal(migration);
  const settings = (Object.keys(SETTING_COLUMNS) as (keyof typeof SETTING_COLUMNS)[]).filter((setting) => changes[setting] !== undefined);
  const columns = settings.map((setting) => SETTING_COLUMNS[setting]);
  const assignments = columns.map((column, index) => `${column} = $${index + 2}`).join(', ');
  const recorded = columns.map((column) => `'${column}', ${column}`).join(', ');
  const trusting = changes.trustedBy.length > 0;
  return {
    summary: `Changes subject issuer \`${request.issuer}\`: ${[...settings.map((setting) => `${SETTING_COLUMNS[setting]} ${JSON.stringify(changes[setting])}`), ...(trusting ? [`trusted by ${changes.trustedBy.join(', ')}`] : [])].join('; ')}. \`down\` puts back what was there.`,
    up: [
      `const [registered] = await queryRunner.query('SELECT role FROM trusted_issuers WHERE issuer = $1', [${issuer}]);`,
      `if (registered?.role !== 'subject') throw new Error(${literal(`Subject issuer "${request.issuer}" is not registered: add it first with npm run issuer:migration -- --subject ${request.issuer} --jwks-uri …`)});`,
      ...requireKnown(changes),
      'await queryRunner.query(',
      `  "INSERT INTO trusted_issuer_settings_before_migration (migration, issuer, settings) SELECT $1, issuer, jsonb_build_object(${recorded || "'added_trusted_by', '[]'::jsonb"}) FROM trusted_issuers WHERE issuer = $2",`,
      `  [${key}, ${issuer}],`,
      ');',
      ...(columns.length > 0
        ? [
            `await queryRunner.query('UPDATE trusted_issuers SET ${assignments} WHERE issuer = $1', [${[issuer, ...settings.map((setting) => literal(changes[setting]))].join(', ')}]);`,
          ]
        : []),
      ...(trusting
        ? [
            'const added = await queryRunner.query(',
            `  'INSERT INTO client_subject_issuers (client_id, issuer) SELECT unnest($1::text[]), $2 ON CONFLICT DO NOTHING RETURNING client_id',`,
            `  [${literal(changes.trustedBy)}, ${issuer}],`,
            ');',
            'await queryRunner.query(',
            `  "UPDATE trusted_issuer_settings_before_migration SET settings = settings || jsonb_build_object('added_trusted_by', $2::text[]) WHERE migration = $1",`,
            `  [${key}, added.map((row: { client_id: string }) => row.client_id)],`,
            ');',
          ]
        : []),
    ],
    down: [
      `const [before] = await queryRunner.query('SELECT settings FROM trusted_issuer_settings_before_migration WHERE migration = $1', [${key}]);`,
      `if (!before) throw new Error(${literal(`No record of subject issuer "${request.issuer}" before ${migration}: restore its settings by hand`)});`,
      ...(columns.length > 0
        ? [
            `await queryRunner.query('UPDATE trusted_issuers SET ${assignments} WHERE issuer = $1', [${[issuer, ...columns.map((column) => `before.settings.${column}`)].join(', ')}]);`,
          ]
        : []),
      ...(trusting
        ? [
            `await queryRunner.query('DELETE FROM client_subject_issuers WHERE issuer = $1 AND client_id = ANY($2::text[])', [${issuer}, before.settings.added_trusted_by ?? []]);`,
          ]
        : []),
      `await queryRunner.query('DELETE FROM trusted_issuer_settings_before_migration WHERE migration = $1', [${key}]);`,
    ],
  };
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

/** A value as a TypeScript literal in generated code. */
export function literal(value: unknown): string {
  return JSON.stringify(value);
}
