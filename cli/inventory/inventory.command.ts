import { parseArgs } from 'node:util';
import { CLIENT_TABLE, formatTable, ISSUER_TABLE, RESOURCE_TABLE, showClient, showIssuer, showResource, showUser, USER_TABLE } from './inventory-format';
import type { Inventory } from './inventory';

export type InventoryNoun = 'clients' | 'resources' | 'issuers' | 'users';

export const INVENTORY_NOUNS: readonly InventoryNoun[] = ['clients', 'resources', 'issuers', 'users'];

export const INVENTORY_USAGE = `Usage: tollgate <clients | resources | issuers | users> list [--json]
       tollgate <clients | resources | issuers | users> show <id> [--json]
Reads the database the service uses (DATABASE_URL, else the embedded one) and changes nothing.
show takes a client id, a resource name, an issuer, or a username (or subject id). Secrets appear by id,
description and expiry; no secret, hash, password hash or private key is ever printed.
From a checkout: npm run clients -- list (and npm run resources, issuers, users the same way).`;

export interface InventoryRequest {
  readonly noun: InventoryNoun;
  readonly action: 'list' | 'show';
  readonly id?: string;
  readonly json: boolean;
}

export class InventoryUsageError extends Error {}

/** `list [--json]` or `show <id> [--json]`; `undefined` for --help. */
export function parseInventoryArguments(noun: InventoryNoun, argv: readonly string[]): InventoryRequest | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { json: { type: 'boolean' }, help: { type: 'boolean' } } });
  } catch (error) {
    throw new InventoryUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  const [action, id, ...rest] = positionals;
  if (action === 'list' && id === undefined) return { noun, action, json: values.json === true };
  if (action === 'show' && id !== undefined && rest.length === 0 && id.length <= 2000) return { noun, action, id, json: values.json === true };
  throw new InventoryUsageError(action === 'show' ? 'show takes one id' : `expected list or show, not ${JSON.stringify(action ?? '')}`);
}

const NOT_FOUND: Record<InventoryNoun, string> = { clients: 'no client', resources: 'no resource', issuers: 'no trusted issuer', users: 'no user' };

/** Writes the table or JSON; exit code 0, or 1 when `show` finds nothing. */
export async function runInventoryRequest(
  request: InventoryRequest,
  inventory: Inventory,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  const json = (value: unknown) => out(`${JSON.stringify(value, null, 2)}\n`);
  if (request.action === 'list') {
    const [rows, table] = await listOf(request.noun, inventory);
    if (request.json) json(rows);
    else
      out(
        formatTable(
          table.header,
          rows.map((row) => table.row(row as never)),
        ),
      );
    return 0;
  }
  const id = request.id ?? '';
  const found = await showOf(request.noun, inventory, id);
  if (!found) {
    err(`${request.noun} show: ${NOT_FOUND[request.noun]} ${JSON.stringify(id.slice(0, 200))}\n`);
    return 1;
  }
  if (request.json) json(found.view);
  else out(found.text);
  return 0;
}

async function listOf(noun: InventoryNoun, inventory: Inventory): Promise<[readonly unknown[], { header: readonly string[]; row: (row: never) => string[] }]> {
  switch (noun) {
    case 'clients':
      return [await inventory.clients(), CLIENT_TABLE];
    case 'resources':
      return [await inventory.resources(), RESOURCE_TABLE];
    case 'issuers':
      return [await inventory.trustedIssuers(), ISSUER_TABLE];
    case 'users':
      return [await inventory.users(), USER_TABLE];
  }
}

async function showOf(noun: InventoryNoun, inventory: Inventory, id: string): Promise<{ view: unknown; text: string } | undefined> {
  const shown = <T>(view: T | undefined, render: (view: T) => string) => (view === undefined ? undefined : { view, text: render(view) });
  switch (noun) {
    case 'clients':
      return shown(await inventory.client(id), showClient);
    case 'resources':
      return shown(await inventory.resource(id), showResource);
    case 'issuers':
      return shown(await inventory.trustedIssuer(id), showIssuer);
    case 'users':
      return shown(await inventory.user(id), showUser);
  }
}
