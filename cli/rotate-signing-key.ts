import 'reflect-metadata';
import { KeysModule } from '../src/tokens/keys/keys.module';
import { SigningKeyRotator } from '../src/tokens/keys/signing-key.rotator';
import { openOperatorContext } from './operator-context';

const USAGE = `Usage: tollgate keys:rotate [--immediately]   (from a checkout: npm run keys:rotate [-- --immediately])
Creates a new signing key (and, when SIGNING_ALG is not RS256, a new RS256 key for ID tokens),
published at once and signing after KEY_PROPAGATION_TIME (with
--immediately: at once; verifiers that cached the JWKS may refuse its tokens until they refetch).
Reads the same environment as the service (DATABASE_URL, KEY_ENCRYPTION_KEY, SIGNING_ALG, KEY_*).
With the embedded database (no DATABASE_URL), stop the service first: PGlite opens DATA_DIR in one process only.`;

/** An operator's forced rotation: the service's own modules, without HTTP. Returns the exit code. */
export async function runKeysRotateCommand(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--immediately');
  if (unknown.length > 0) {
    process.stderr.write(`${unknown.includes('--help') ? '' : `keys:rotate: unknown argument ${unknown[0]}\n`}${USAGE}\n`);
    return unknown.includes('--help') ? 0 : 2;
  }
  const opened = await openOperatorContext([KeysModule]);
  if (!opened) return 1;
  const { app } = opened;
  try {
    for (const { kid, algorithm, activatesAt } of await app.get(SigningKeyRotator).rotateNow({ immediately: argv.includes('--immediately') })) {
      process.stdout.write(`Signing key ${kid} (${algorithm}) created: published now, signs from ${activatesAt.toISOString()}.\n`);
    }
    return 0;
  } finally {
    await app.close();
  }
}
