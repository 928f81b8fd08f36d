import type { WorkloadIdentityArgument } from './secretless-client-arguments';
import { CLIENT_HISTORY, literal, SettingsHistory } from './settings-history';

/**
 * What a change migration sets on an existing client (docs/operations.md#changing-what-exists): only
 * the settings given; a list given replaces the whole list. Absent means unchanged.
 */
export interface ClientChanges {
  readonly clientName?: string;
  readonly grantTypes?: readonly string[];
  readonly scopes?: readonly string[];
  readonly redirectUris?: readonly string[];
  readonly postLogoutRedirectUris?: readonly string[];
  readonly requireConsent?: boolean;
  readonly enabled?: boolean;
  readonly mayActClientId?: string;
  readonly transactionTokens?: boolean;
  readonly requireDpop?: boolean;
  readonly requirePhr?: boolean;
  /** null removes it (`--no-backchannel-logout`). */
  readonly backchannelLogoutUri?: string | null;
  readonly backchannelLogoutSessionRequired?: boolean;
  readonly accessTokenLifetimeSeconds?: number;
  readonly refreshTokenLifetimeSeconds?: number;
  /** private_key_jwt keys: a file read by the command, then its JWK Set; or a `jwks_uri`. Either replaces both. */
  readonly jwksFile?: string;
  readonly jwks?: { readonly keys: readonly object[] };
  readonly jwksUri?: string;
  /** Replaces the client's workload identities with this one. */
  readonly workload?: WorkloadIdentityArgument;
}

/** Each plain setting and its column of `clients`. */
export const CLIENT_SETTING_COLUMNS = {
  clientName: 'client_name',
  grantTypes: 'allowed_grant_types',
  scopes: 'allowed_scopes',
  redirectUris: 'redirect_uris',
  postLogoutRedirectUris: 'post_logout_redirect_uris',
  requireConsent: 'require_consent',
  enabled: 'enabled',
  mayActClientId: 'may_act_client_id',
  transactionTokens: 'transaction_tokens',
  requireDpop: 'require_dpop',
  requirePhr: 'require_phr',
  backchannelLogoutUri: 'backchannel_logout_uri',
  backchannelLogoutSessionRequired: 'backchannel_logout_session_required',
  accessTokenLifetimeSeconds: 'access_token_lifetime',
  refreshTokenLifetimeSeconds: 'refresh_token_lifetime',
} as const satisfies Partial<Record<keyof ClientChanges, string>>;

type Setting = keyof typeof CLIENT_SETTING_COLUMNS;

const WORKLOAD_IDENTITIES_BEFORE =
  "(SELECT coalesce(jsonb_agg(jsonb_build_object('issuer', issuer, 'subject', subject)), '[]'::jsonb) FROM client_workload_identities WHERE client_workload_identities.client_id = clients.client_id)";

/** The class name's verb: the two changes that had their own form keep their names. */
export function clientChangeAction(changes: ClientChanges): string {
  const given = changedSettings(changes);
  if (given.length === 1 && given[0] === 'enabled') return changes.enabled ? 'EnableClient' : 'DisableClient';
  if (given.length > 0 && given.every((setting) => setting === 'mayActClientId' || setting === 'transactionTokens')) return 'SetDelegationPolicy';
  return 'ChangeClient';
}

/**
 * The migration changing an existing client: records every column it overwrites (and the workload
 * identities it replaces) in client_settings_before_migration, so that `down` restores exactly that.
 */
export function renderClientChange(clientId: string, changes: ClientChanges, migration: string): { summary: string; up: string[]; down: string[] } {
  const history = new SettingsHistory(CLIENT_HISTORY, migration, clientId);
  const settings = changedSettings(changes);
  const assignments: [string, string][] = settings.map((setting) => [CLIENT_SETTING_COLUMNS[setting], literal(changes[setting])]);
  if (changes.jwks !== undefined || changes.jwksUri !== undefined) {
    // clients_one_key_source: a client has inline keys or a jwks_uri, never both.
    assignments.push(['jwks', literal(changes.jwks ? JSON.stringify(changes.jwks) : null)], ['jwks_uri', literal(changes.jwksUri ?? null)]);
  }
  const columns = assignments.map(([column]) => column);
  const { workload } = changes;
  const id = literal(clientId);
  return {
    summary: `Changes client \`${clientId}\`: ${describe(changes)}. \`down\` puts back what it replaced.`,
    up: [
      `if ((await queryRunner.query('SELECT 1 FROM clients WHERE client_id = $1', [${id}])).length === 0) {`,
      `  throw new Error(${literal(`Client "${clientId}" does not exist: create it with npm run client:migration -- --client-id ${clientId} --grant … --scope …`)});`,
      '}',
      ...(workload ? requireWorkloadIssuer(workload) : []),
      ...history.record(columns, workload ? { workload_identities: WORKLOAD_IDENTITIES_BEFORE } : {}),
      ...history.update(assignments),
      ...(workload
        ? [
            `await queryRunner.query('DELETE FROM client_workload_identities WHERE client_id = $1', [${id}]);`,
            `await queryRunner.query('INSERT INTO client_workload_identities (issuer, subject, client_id) VALUES ($1, $2, $3)', [${literal(workload.issuer)}, ${literal(workload.subject)}, ${id}]);`,
          ]
        : []),
    ],
    down: history.restore(
      columns,
      workload
        ? [
            `await queryRunner.query('DELETE FROM client_workload_identities WHERE client_id = $1', [${id}]);`,
            'await queryRunner.query(',
            "  'INSERT INTO client_workload_identities (issuer, subject, client_id) SELECT issuer, subject, $1 FROM jsonb_to_recordset($2::jsonb) AS w(issuer text, subject text)',",
            `  [${id}, JSON.stringify(before.settings.workload_identities)],`,
            ');',
          ]
        : [],
    ),
  };
}

export function changedSettings(changes: ClientChanges): Setting[] {
  return (Object.keys(CLIENT_SETTING_COLUMNS) as Setting[]).filter((setting) => changes[setting] !== undefined);
}

/** True when the request changes nothing. */
export function changesNothing(changes: ClientChanges): boolean {
  return (
    changedSettings(changes).length === 0 && changes.jwksFile === undefined && changes.jwks === undefined && changes.jwksUri === undefined && !changes.workload
  );
}

function requireWorkloadIssuer(workload: WorkloadIdentityArgument): string[] {
  const issuer = literal(workload.issuer);
  return [
    `if ((await queryRunner.query("SELECT 1 FROM trusted_issuers WHERE issuer = $1 AND role = 'workload'", [${issuer}])).length === 0) {`,
    `  throw new Error(${literal(`Workload issuer "${workload.issuer}" is not registered: add it first with npm run issuer:migration`)});`,
    '}',
  ];
}

function describe(changes: ClientChanges): string {
  const parts: string[] = changedSettings(changes).map((setting) => `${CLIENT_SETTING_COLUMNS[setting]} ${JSON.stringify(changes[setting])}`);
  if (changes.jwks) parts.push('private_key_jwt with the JWK Set below');
  if (changes.jwksUri) parts.push(`private_key_jwt with the JWK Set at ${changes.jwksUri}`);
  if (changes.workload) parts.push(`workload identity ${changes.workload.subject}`);
  return parts.join('; ');
}
