import { literal, SettingsHistory, TRUSTED_ISSUER_HISTORY } from '../client-migration/settings-history';
import type { SubjectIssuerChanges } from './subject-issuer-arguments';
import { requireKnown, type MigrationBody } from './subject-issuer-source';

/**
 * What a change migration sets on a registered trusted issuer (docs/operations.md#changing-what-exists);
 * absent means unchanged. Subject-issuer settings apply to subject issuers only.
 */
export interface IssuerChanges {
  readonly description?: string;
  readonly enabled?: boolean;
  /** Its keys: a file read by the command, then its JWK Set; or a `jwks_uri`. Either replaces both. */
  readonly jwksFile?: string;
  readonly jwks?: { readonly keys: readonly object[] };
  readonly jwksUri?: string;
  readonly subject?: SubjectIssuerChanges;
}

const SUBJECT_COLUMNS = { audience: 'subject_audience', userClaim: 'subject_user_claim', identityScopes: 'subject_identity_scopes' } as const;

/**
 * Replaces the settings given and adds the trusting clients, after recording in
 * trusted_issuer_settings_before_migration what it replaces and which clients it added, so that
 * `down` restores exactly that (not a default, and not the clients that trusted the issuer already).
 */
export function renderIssuerChange(issuer: string, changes: IssuerChanges, migration: string): MigrationBody {
  const history = new SettingsHistory(TRUSTED_ISSUER_HISTORY, migration, issuer);
  const id = literal(issuer);
  const { subject } = changes;
  const subjectSettings = subject ? (Object.keys(SUBJECT_COLUMNS) as (keyof typeof SUBJECT_COLUMNS)[]).filter((setting) => subject[setting] !== undefined) : [];
  const assignments: [string, string][] = [
    ...(changes.description !== undefined ? [['description', literal(changes.description)] as [string, string]] : []),
    ...(changes.enabled !== undefined ? [['enabled', literal(changes.enabled)] as [string, string]] : []),
    // trusted_issuers_one_key_source: inline keys or a jwks_uri, never both.
    ...(changes.jwks !== undefined || changes.jwksUri !== undefined
      ? [
          ['jwks', literal(changes.jwks ? JSON.stringify(changes.jwks) : null)] as [string, string],
          ['jwks_uri', literal(changes.jwksUri ?? null)] as [string, string],
        ]
      : []),
    ...subjectSettings.map((setting) => [SUBJECT_COLUMNS[setting], literal(subject?.[setting])] as [string, string]),
  ];
  const columns = assignments.map(([column]) => column);
  const trustedBy = subject?.trustedBy ?? [];
  const requireSubject = subject !== undefined;
  return {
    summary: `Changes ${requireSubject ? 'subject' : 'trusted'} issuer \`${issuer}\`: ${[
      ...assignments.map(([column, value]) => `${column} ${column === 'jwks' && value !== 'null' ? '(the JWK Set below)' : value}`),
      ...(trustedBy.length > 0 ? [`trusted by ${trustedBy.join(', ')}`] : []),
    ].join('; ')}. \`down\` puts back what was there.`,
    up: [
      `const [registered] = await queryRunner.query('SELECT role FROM trusted_issuers WHERE issuer = $1', [${id}]);`,
      requireSubject
        ? `if (registered?.role !== 'subject') throw new Error(${literal(`Subject issuer "${issuer}" is not registered: add it first with npm run issuer:migration -- --subject ${issuer} --jwks-uri …`)});`
        : `if (!registered) throw new Error(${literal(`Trusted issuer "${issuer}" is not registered: add it first with npm run issuer:migration`)});`,
      ...(subject ? requireKnown(subject) : []),
      ...history.record(columns, { added_trusted_by: "'[]'::jsonb" }),
      ...history.update(assignments),
      ...addTrustingClients('client_subject_issuers', issuer, migration, trustedBy),
    ],
    down: history.restore(columns, removeAddedTrustingClients('client_subject_issuers', issuer, trustedBy)),
  };
}

/**
 * Lines that make `clients` trust the issuer, recording in the migration's history row (which
 * `record` wrote with `added_trusted_by`) the ones that did not already, for
 * `removeAddedTrustingClients` in `down`.
 */
export function addTrustingClients(table: string, issuer: string, migration: string, clients: readonly string[]): string[] {
  if (clients.length === 0) return [];
  return [
    'const added = await queryRunner.query(',
    `  'INSERT INTO ${table} (client_id, issuer) SELECT unnest($1::text[]), $2 ON CONFLICT DO NOTHING RETURNING client_id',`,
    `  [${literal(clients)}, ${literal(issuer)}],`,
    ');',
    'await queryRunner.query(',
    `  "UPDATE trusted_issuer_settings_before_migration SET settings = settings || jsonb_build_object('added_trusted_by', $2::text[]) WHERE migration = $1",`,
    `  [${literal(migration)}, added.map((row: { client_id: string }) => row.client_id)],`,
    ');',
  ];
}

/** `down`'s counterpart of `addTrustingClients`: only the clients `up` added stop trusting the issuer. */
export function removeAddedTrustingClients(table: string, issuer: string, clients: readonly string[]): string[] {
  if (clients.length === 0) return [];
  return [
    `await queryRunner.query('DELETE FROM ${table} WHERE issuer = $1 AND client_id = ANY($2::text[])', [${literal(issuer)}, before.settings.added_trusted_by ?? []]);`,
  ];
}
