import { API_RESOURCE_HISTORY, literal, SettingsHistory } from '../client-migration/settings-history';

/**
 * What `--change` sets on an existing API resource; absent means unchanged, a list given replaces
 * the list. A new attribute of API resources is one member here, its column in
 * API_RESOURCE_COLUMNS and its option in resource-migration-arguments.ts: recording, `down` and
 * the summary follow from the map.
 */
export interface ApiResourceChanges {
  readonly scopes?: readonly string[];
  /** RFC 8707 resource URI, unique among resources. */
  readonly uri?: string;
  /** The client that serves the API (docs/tokens.md#addressed-to-a-client). */
  readonly servedBy?: string;
  readonly enabled?: boolean;
  /** Clients that registered themselves may request its scopes (docs/agents.md). */
  readonly openToSelfRegistered?: boolean;
}

export const API_RESOURCE_COLUMNS = {
  scopes: 'scopes',
  uri: 'resource_uri',
  servedBy: 'serving_client_id',
  enabled: 'enabled',
  openToSelfRegistered: 'open_to_self_registered',
} as const satisfies Record<keyof ApiResourceChanges, string>;

type Setting = keyof typeof API_RESOURCE_COLUMNS;

export function changedResourceSettings(changes: ApiResourceChanges): Setting[] {
  return (Object.keys(API_RESOURCE_COLUMNS) as Setting[]).filter((setting) => changes[setting] !== undefined);
}

/** Why an API resource cannot be added again, and how it is changed instead. */
export function resourceAlreadyExists(name: string): string {
  return `API resource "${name}" already exists: change it with npm run resource:migration -- --api ${name} --change --scope <scopes> (or --uri, --served-by, --enable, --disable, --open-to-self-registered, --close-to-self-registered)`;
}

/** Why a resource URI cannot be given: an `aud` value names one resource. */
export function uriTaken(uri: string, holder?: string): string {
  return `another API resource${holder === undefined ? '' : ` ("${holder}")`} already has the URI ${uri}`;
}

/**
 * The migration changing an existing API resource: records the columns it overwrites in
 * api_resource_settings_before_migration, so that `down` restores exactly what was there.
 */
export function renderApiResourceChange(name: string, changes: ApiResourceChanges, migration: string): { summary: string; up: string[]; down: string[] } {
  const history = new SettingsHistory(API_RESOURCE_HISTORY, migration, name);
  const settings = changedResourceSettings(changes);
  const columns = settings.map((setting) => API_RESOURCE_COLUMNS[setting]);
  return {
    summary: `Changes API resource \`${name}\`: ${settings.map((setting) => `${API_RESOURCE_COLUMNS[setting]} ${JSON.stringify(changes[setting])}`).join('; ')}. \`down\` puts back what it replaced.`,
    up: [
      `if ((await queryRunner.query('SELECT 1 FROM api_resources WHERE name = $1', [${literal(name)}])).length === 0) {`,
      `  throw new Error(${literal(`API resource "${name}" does not exist: add it with npm run resource:migration -- --api ${name} --scope <scopes>`)});`,
      '}',
      ...(changes.uri === undefined ? [] : uriCheck(name, changes.uri)),
      ...history.record(columns),
      ...history.update(settings.map((setting) => [API_RESOURCE_COLUMNS[setting], literal(changes[setting])] as const)),
    ],
    down: history.restore(columns),
  };
}

/** Checked again when applied: the database may have changed since the migration was generated. */
function uriCheck(name: string, uri: string): string[] {
  return [
    `if ((await queryRunner.query('SELECT 1 FROM api_resources WHERE resource_uri = $1 AND name <> $2', [${literal(uri)}, ${literal(name)}])).length > 0) {`,
    `  throw new Error(${literal(uriTaken(uri))});`,
    '}',
  ];
}
