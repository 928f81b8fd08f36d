type Env = Readonly<Record<string, string | undefined>>;

/** What the production checks look at, already parsed. */
export interface ProductionSafetyInputs {
  readonly issuer: string;
  readonly databaseUrl: string | undefined;
  readonly seedDemo: boolean;
  /** `KEY_PROPAGATION_TIME`, in seconds. */
  readonly keyPropagationSeconds: number;
}

/**
 * The shortest KEY_PROPAGATION_TIME production accepts: resource servers cache discovery and the JWKS
 * for up to 10 minutes (express-oauth2-jwt-bearer's default), so a key must be published longer than
 * that before it signs (docs/operations.md#signing-keys-propagation-time).
 */
export const MIN_KEY_PROPAGATION_SECONDS = 15 * 60;

/** Outside production a shorter propagation time is allowed (tests, benches), with this warning. */
export function keyPropagationWarning(keyPropagationSeconds: number): string | undefined {
  if (keyPropagationSeconds >= MIN_KEY_PROPAGATION_SECONDS) return undefined;
  return (
    `KEY_PROPAGATION_TIME is ${keyPropagationSeconds}s: a new signing key is published for less than 15 minutes before it signs, ` +
    'so resource servers that cache the JWKS for up to 10 minutes may refuse its first tokens (refused with NODE_ENV=production)'
  );
}

/**
 * With NODE_ENV=production, settings that are fine on a laptop and dangerous in front of users are
 * refused; each message names the setting and what overrides it (docs/operations.md, docs/configuration.md).
 */
export function productionSafetyProblems(env: Env, inputs: ProductionSafetyInputs): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  const issuerProblem = insecureIssuer(inputs.issuer);
  if (issuerProblem && env.ALLOW_INSECURE_ISSUER !== 'true') {
    problems.push(
      `ISSUER ${inputs.issuer} ${issuerProblem}: with NODE_ENV=production set ISSUER to the public https URL clients reach ` +
        '(ALLOW_INSECURE_ISSUER=true overrides this, for test benches only)',
    );
  }
  if (inputs.seedDemo && env.ALLOW_DEMO_DATA !== 'true') {
    problems.push(
      'SEED_DEMO=true (the default without DATABASE_URL) applies the demo data set, whose secrets and passwords are public: ' +
        'with NODE_ENV=production set SEED_DEMO=false (ALLOW_DEMO_DATA=true overrides this, for test benches only)',
    );
  }
  if (inputs.keyPropagationSeconds < MIN_KEY_PROPAGATION_SECONDS) {
    problems.push(
      `KEY_PROPAGATION_TIME is ${inputs.keyPropagationSeconds}s: with NODE_ENV=production it must be at least 15m, ` +
        'as resource servers cache discovery and the JWKS for up to 10 minutes and would refuse the first tokens of a new key ' +
        '(no override: tests and benches may go lower outside production)',
    );
  }
  if (inputs.databaseUrl === undefined) {
    problems.push(
      'DATABASE_URL must be set when NODE_ENV=production: the embedded database is for development, one process on one machine ' +
        '(no override: unset NODE_ENV to run on the embedded database)',
    );
  }
  return problems;
}

/** ALLOW_INSECURE_ISSUER=true with an issuer it lets through: a warning for every start, as SEED_DEMO's. */
export function overrideWarnings(env: Env, issuer: string): string[] {
  const issuerProblem = insecureIssuer(issuer);
  if (env.ALLOW_INSECURE_ISSUER !== 'true' || !issuerProblem) return [];
  return [
    `ALLOW_INSECURE_ISSUER=true: ISSUER ${issuer} ${issuerProblem}, and tokens, codes and passwords cross the network in clear text. ` +
      'For test benches only: never expose this instance.',
  ];
}

// RFC 6749 §3.1, §10.9 and RFC 8414 §2: endpoints and the issuer identifier are https.
function insecureIssuer(issuer: string): string | undefined {
  const url = new URL(issuer);
  if (url.protocol !== 'https:') return 'is not https';
  const host = url.hostname.toLowerCase();
  const local = host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '[::1]' || host === '0.0.0.0';
  return local ? 'names this machine (localhost), which no other machine can reach' : undefined;
}
