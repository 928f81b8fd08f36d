import { parseArgs } from 'node:util';
import { hashClientSecret } from '../../identity/clients/client-secret.verifier';
import { generateCredential } from './client-registration';
import type { InitialAccessTokenRepository } from './registered-client.repository';

export const REGISTRATION_TOKENS_USAGE = `Usage:
  tollgate registration-tokens create [--description <text>] [--expires-in-days <days>]
  tollgate registration-tokens list [--json]
  tollgate registration-tokens revoke <id>
Initial access tokens for dynamic client registration with DYNAMIC_REGISTRATION=token (docs/agents.md).
create prints the new token once, on standard output; only its hash is stored. A token may register
clients until it expires (never, without --expires-in-days) or is revoked. list never shows a token.`;

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

/** `tollgate registration-tokens …`: create, list and revoke initial access tokens (RFC 7591 §3). */
export class RegistrationTokensCommand {
  constructor(
    private readonly tokens: InitialAccessTokenRepository,
    private readonly io: CommandOutput,
  ) {}

  async run(argv: readonly string[]): Promise<number> {
    const [action, ...rest] = argv;
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: { description: { type: 'string' }, 'expires-in-days': { type: 'string' }, json: { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      return this.usage((error as Error).message);
    }
    const { values, positionals } = parsed;
    if (action === 'create' && positionals.length === 0) return this.create(values.description, values['expires-in-days']);
    if (action === 'list' && positionals.length === 0) return this.list(values.json === true);
    if (action === 'revoke' && positionals.length === 1) return this.revoke(positionals[0]);
    return this.usage(action === undefined ? undefined : `unknown or incomplete command: ${action}`);
  }

  private async create(description: string | undefined, days: string | undefined): Promise<number> {
    if (description !== undefined && description.length > 200) return this.usage('--description must be at most 200 characters');
    if (days !== undefined && !/^\d{1,4}$/.test(days)) return this.usage('--expires-in-days must be a whole number of days');
    const expiresAt = days === undefined ? undefined : new Date(Date.now() + Number(days) * 86_400_000);
    const token = generateCredential();
    const info = await this.tokens.create(hashClientSecret(token), description, expiresAt);
    this.io.err(`Initial access token ${info.id} created${expiresAt ? `, valid until ${expiresAt.toISOString()}` : ''}. It is shown only now:\n`);
    this.io.out(`${token}\n`);
    return 0;
  }

  private async list(json: boolean): Promise<number> {
    const tokens = await this.tokens.list();
    if (json) {
      this.io.out(`${JSON.stringify(tokens)}\n`);
      return 0;
    }
    for (const token of tokens) {
      this.io.out(`${token.id}  created ${token.createdAt.toISOString()}  expires ${token.expiresAt?.toISOString() ?? 'never'}  ${token.description ?? ''}\n`);
    }
    return 0;
  }

  private async revoke(id: string): Promise<number> {
    if (await this.tokens.revoke(id)) {
      this.io.err(`Initial access token ${id} revoked.\n`);
      return 0;
    }
    this.io.err(`No initial access token ${id}.\n`);
    return 1;
  }

  private usage(problem?: string): number {
    this.io.err(`${problem ? `${problem}\n` : ''}${REGISTRATION_TOKENS_USAGE}\n`);
    return 2;
  }
}
