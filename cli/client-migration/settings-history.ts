/** A table of records that change migrations overwrite, and where it keeps what they replaced. */
export interface HistoryTable {
  /** `<table>_settings_before_migration`: (migration, key, settings jsonb), one row per applied change. */
  readonly history: string;
  readonly table: string;
  /** The primary key column, also the key column of `history`. */
  readonly key: string;
  /** How messages name a record: `client`, `API resource`, `trusted issuer`. */
  readonly what: string;
}

export const CLIENT_HISTORY: HistoryTable = { history: 'client_settings_before_migration', table: 'clients', key: 'client_id', what: 'client' };
export const API_RESOURCE_HISTORY: HistoryTable = {
  history: 'api_resource_settings_before_migration',
  table: 'api_resources',
  key: 'name',
  what: 'API resource',
};
export const TRUSTED_ISSUER_HISTORY: HistoryTable = {
  history: 'trusted_issuer_settings_before_migration',
  table: 'trusted_issuers',
  key: 'issuer',
  what: 'trusted issuer',
};
/** Settings of an authorization-grant issuer (docs/chaining.md), kept beside the trusted issuer's own. */
export const AUTHORIZATION_GRANT_HISTORY: HistoryTable = {
  history: TRUSTED_ISSUER_HISTORY.history,
  table: 'authorization_grant_issuers',
  key: 'issuer',
  what: 'authorization-grant issuer',
};
export const PARTNER_HISTORY: HistoryTable = {
  history: 'partner_settings_before_migration',
  table: 'partner_authorization_servers',
  key: 'issuer',
  what: 'partner authorization server',
};

/**
 * The settings a generated migration overwrites on an existing record, kept under the migration's
 * name in the table's history so that `down` restores them exactly (not to a default). Columns are
 * recorded as they are; `extra` records more, as SQL expressions over the row (e.g. a subquery of
 * rows in another table), for the caller's own restore lines, which read `before.settings`.
 */
export class SettingsHistory {
  constructor(
    private readonly table: HistoryTable,
    private readonly migration: string,
    private readonly id: string,
  ) {}

  record(columns: readonly string[], extra: Readonly<Record<string, string>> = {}): string[] {
    const fields = [...columns.map((column) => `'${column}', ${column}`), ...Object.entries(extra).map(([name, sql]) => `'${name}', ${sql}`)].join(', ');
    const { history, table, key } = this.table;
    return [
      'await queryRunner.query(',
      `  "INSERT INTO ${history} (migration, ${key}, settings) SELECT $1, ${key}, jsonb_build_object(${fields}) FROM ${table} WHERE ${key} = $2",`,
      `  [${literal(this.migration)}, ${literal(this.id)}],`,
      ');',
    ];
  }

  /** `UPDATE` of the given columns to the given values (TypeScript literals or expressions). */
  update(assignments: readonly (readonly [column: string, value: string])[]): string[] {
    if (assignments.length === 0) return [];
    const set = assignments.map(([column], index) => `${column} = $${index + 2}`).join(', ');
    return [
      `await queryRunner.query('UPDATE ${this.table.table} SET ${set} WHERE ${this.table.key} = $1', [${[literal(this.id), ...assignments.map(([, value]) => value)].join(', ')}]);`,
    ];
  }

  restore(columns: readonly string[], extra: readonly string[] = []): string[] {
    const { history, what } = this.table;
    return [
      `const [before] = await queryRunner.query('SELECT settings FROM ${history} WHERE migration = $1', [${literal(this.migration)}]);`,
      `if (!before) throw new Error(${literal(`No record of ${what} "${this.id}" before ${this.migration}: restore its settings by hand`)});`,
      ...this.update(columns.map((column) => [column, `before.settings.${column}`] as const)),
      ...extra,
      `await queryRunner.query('DELETE FROM ${history} WHERE migration = $1', [${literal(this.migration)}]);`,
    ];
  }
}

/** A value as a TypeScript literal in generated code. */
export function literal(value: unknown): string {
  return JSON.stringify(value);
}

/** Text for the migration's doc comment: a value holding `*\/` would end the comment and break the file. */
export function commentSafe(text: string): string {
  return text.replaceAll('*/', '*\\/');
}
