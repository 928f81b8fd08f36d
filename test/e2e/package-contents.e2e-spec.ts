import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { ensureBuilt, ROOT } from '../support/built-service';
import { packTollgate } from '../support/packed-tollgate';

const MARKDOWN_LINK = /\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const DOCS_REFERENCE = /\b((?:docs\/)?[\w-]+\.md)(?:#[\w-]+)?/g;
const SOURCE_FILE = /(?<![\w@/-])[\w./-]+\.ts\b/g;
const CODE_SPAN = /`([^`]+)`/g;

/** The names a TypeScript module exports, as its declarations say. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker
    .getExportsOfModule(symbol)
    .map((exported) => exported.name)
    .sort();
}

/** Every name a declaration file declares at its top level, exported from it or not. */
function declaredNames(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement) => {
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((declaration) => declaration.name.getText(source));
    const name = (statement as { name?: ts.Node }).name;
    return name && ts.isIdentifier(name) ? [name.text] : [];
  });
}

/**
 * What `npm pack` publishes, unpacked as npm installs it: the documentation the README and the type
 * declarations point to is inside it, and the declarations speak only of what the package exports
 * (docs/extending.md: nothing else is public, deep imports are not supported).
 */
describe('the packed tollgate package', () => {
  let directory: string;
  let packageRoot: string;
  let files: Set<string>;

  beforeAll(async () => {
    await ensureBuilt();
    directory = await mkdtemp(join(tmpdir(), 'tollgate-package-'));
    const tarball = await packTollgate(directory);
    packageRoot = join(directory, 'package');
    await mkdir(packageRoot);
    await promisify(execFile)('tar', ['-xzf', tarball, '-C', packageRoot, '--strip-components=1']);
    const entries = await readdir(packageRoot, { recursive: true, withFileTypes: true });
    files = new Set(entries.filter((entry) => entry.isFile()).map((entry) => relative(packageRoot, join(entry.parentPath, entry.name))));
  }, 300_000);

  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  const exists = (path: string) => files.has(path) || [...files].some((file) => file.startsWith(`${path.replace(/\/$/, '')}/`));

  it('carries its documentation: every relative link of every Markdown file in it resolves inside the package', async () => {
    const markdown = [...files].filter((file) => file.endsWith('.md'));
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/extending.md', 'docs/configuration.md', 'CHANGELOG.md']));
    const dead: string[] = [];
    for (const file of markdown) {
      const text = await readFile(join(packageRoot, file), 'utf8');
      for (const [, target] of text.matchAll(MARKDOWN_LINK)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const path = posix.normalize(posix.join(posix.dirname(file), decodeURI(target.split('#')[0])));
        if (path.startsWith('..') || !exists(path)) dead.push(`${file}: ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it('declares exactly what src/index.ts exports, and its TSDoc names only exported symbols and files in the package', async () => {
    const entry = join(packageRoot, 'dist/src/index.d.ts');
    const exported = exportedNames(entry);
    expect(exported).toEqual(exportedNames(join(ROOT, 'src/index.ts')));

    const program = ts.createProgram([entry], { noEmit: true, skipLibCheck: true, types: [] });
    const declarations = program.getSourceFiles().filter((source) => source.fileName.startsWith(packageRoot));
    const internal = new Set(declarations.flatMap(declaredNames).filter((name) => !exported.includes(name)));
    const problems: string[] = [];
    for (const source of declarations) {
      const file = relative(packageRoot, source.fileName);
      for (const [comment] of source.text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
        for (const [, span] of comment.matchAll(CODE_SPAN)) {
          for (const [name] of span.matchAll(/\b[A-Za-z_]\w*\b/g))
            if (internal.has(name)) problems.push(`${file}: \`${span}\` names ${name}, which is not exported`);
        }
        for (const [path] of comment.matchAll(SOURCE_FILE)) problems.push(`${file}: names the source file ${path}`);
        for (const [, path] of comment.matchAll(DOCS_REFERENCE))
          if (!files.has(path)) problems.push(`${file}: names ${path}, which the package does not carry`);
      }
    }
    expect(problems).toEqual([]);
  });
});
