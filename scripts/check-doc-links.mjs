// `node scripts/check-doc-links.mjs` (part of `npm run lint`): every relative link in the project's
// Markdown (README.md, docs/*.md, examples/**/README.md, bench/README.md) must name a file or folder
// that exists and, with a `#fragment` into a Markdown file, one of its headings as GitHub anchors them.
// Links with a scheme (https:, mailto:) and links inside code are not checked. The code's own pointers
// into the docs (`docs/tokens.md#validation` in a comment or a message) are held to the same rule.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { marked } from 'marked';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCHEME = /^[a-z][a-z0-9+.-]*:|^\/\//i;
const CODE_FOLDERS = ['src', 'cli', 'migrations', 'test', 'examples', 'scripts', 'bench', 'views', 'deploy'];
const CODE_FILE = /\.(ts|js|mjs|cjs|sh|eta|ya?ml)$/;
const DOCS_MENTION = /\bdocs\/([\w-]+\.md)#([\w%-]+)/g;
// Broken mentions in folders other branches are rewriting as this was written; fix them there, then delete the line here.
const KNOWN_BROKEN = new Set(/** @type {string[]} */ ([]));

function markdownFiles() {
  const inFolder = (folder, match) =>
    fs
      .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => !name.split(path.sep).includes('node_modules') && match(path.basename(name)))
      .map((name) => path.join(folder, name));
  return ['README.md', 'bench/README.md', ...inFolder('docs', (name) => name.endsWith('.md')), ...inFolder('examples', (name) => name === 'README.md')].sort();
}

/** The text a heading shows, without its Markdown: what GitHub slugs. */
function plainText(tokens) {
  return tokens.map((token) => (token.tokens ? plainText(token.tokens) : token.type === 'html' ? '' : (token.text ?? ''))).join('');
}

const anchorsByFile = new Map();
/** The anchors GitHub gives a Markdown file's headings (a repeated heading gets -1, -2 …), and explicit `id="…"`s. */
function anchorsOf(file) {
  if (!anchorsByFile.has(file)) {
    const slugger = new GithubSlugger();
    const anchors = new Set();
    const text = fs.readFileSync(file, 'utf8');
    marked.walkTokens(marked.lexer(text), (token) => {
      if (token.type === 'heading') anchors.add(slugger.slug(plainText(token.tokens)));
    });
    for (const [, id] of text.matchAll(/<[a-z]+\s[^>]*\b(?:id|name)="([^"]+)"/gi)) anchors.add(id);
    anchorsByFile.set(file, anchors);
  }
  return anchorsByFile.get(file);
}

function linkProblem(file, relative, href) {
  const [target, fragment] = href.split('#', 2);
  if (target.startsWith('/')) return `absolute path (write it relative to ${relative})`;
  const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
  if (!fs.existsSync(resolved)) return `${path.relative(ROOT, resolved)} does not exist`;
  if (fragment !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(decodeURIComponent(fragment))) {
    return `no heading in ${path.relative(ROOT, resolved)} has the anchor #${fragment}`;
  }
  return undefined;
}

function problemsIn(relative) {
  const file = path.join(ROOT, relative);
  const problems = [];
  marked.walkTokens(marked.lexer(fs.readFileSync(file, 'utf8')), (token) => {
    if ((token.type === 'link' || token.type === 'image') && !SCHEME.test(token.href)) {
      const problem = linkProblem(file, relative, token.href);
      if (problem) problems.push(`${token.href}: ${problem}`);
    }
  });
  return problems.map((problem) => `${relative}: ${problem}`);
}

function codeFiles() {
  return CODE_FOLDERS.filter((folder) => fs.existsSync(path.join(ROOT, folder))).flatMap((folder) =>
    fs
      .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => !/(^|\/)(node_modules|results|dist)(\/|$)/.test(name) && CODE_FILE.test(name))
      .map((name) => path.join(folder, name))
      .filter((relative) => relative !== path.relative(ROOT, fileURLToPath(import.meta.url))),
  );
}

function mentionProblemsIn(relative) {
  const problems = [];
  for (const [mention, name, fragment] of fs.readFileSync(path.join(ROOT, relative), 'utf8').matchAll(DOCS_MENTION)) {
    const target = path.join(ROOT, 'docs', name);
    const known = KNOWN_BROKEN.delete(`${relative} ${mention}`);
    if (!fs.existsSync(target)) problems.push(`${relative}: ${mention}: docs/${name} does not exist`);
    else if (anchorsOf(target).has(decodeURIComponent(fragment))) {
      if (known) problems.push(`${relative}: ${mention} resolves now: delete it from KNOWN_BROKEN in scripts/check-doc-links.mjs`);
    } else if (!known) problems.push(`${relative}: ${mention}: no heading in docs/${name} has that anchor`);
  }
  return problems;
}

const problems = [...markdownFiles().flatMap(problemsIn), ...codeFiles().flatMap(mentionProblemsIn)];
for (const gone of KNOWN_BROKEN) problems.push(`${gone}: no longer there: delete it from KNOWN_BROKEN in scripts/check-doc-links.mjs`);
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`check-doc-links: ${problems.length} broken link(s)`);
  process.exit(1);
}
