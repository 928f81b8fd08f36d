import { ConfigError, loadConfig } from '../../src/platform/config/app.config';

/** The problems `loadConfig` reports for `env`: none when it accepts it. */
export function configProblems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
