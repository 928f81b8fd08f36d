import { dirname, join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './built-service';

/**
 * Type-checks files with the project's own compiler options (tsconfig.json), as `npm run typecheck`
 * would once they are in migrations/. Returns tsc's messages, one per diagnostic; none means it compiles.
 * The files must live under the repository so that `typeorm` resolves from its node_modules.
 */
export function typeCheck(files: readonly string[]): string[] {
  const configFile = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configFile));
  const program = ts.createProgram([...files], { ...options, noEmit: true, types: ['node'] });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName}(${line + 1},${character + 1}): TS${diagnostic.code}: ${message}`;
  });
}

/** A scratch directory inside the repository (git-ignored `.tmp/`), for generated sources that must type-check. */
export const SCRATCH_ROOT = join(ROOT, '.tmp');
