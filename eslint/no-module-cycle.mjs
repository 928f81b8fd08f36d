// A rule for cycles between the folders (Nest modules) of src/: `import-x/no-cycle` sees only
// file-level cycles, and skips `import type`, but a folder that needs another which needs it back
// is one module split in two, however the files are arranged. Folders named in `compositionRoots`
// assemble the others (database/ lists every entity and seeds the demo data), like app.module.ts:
// what they import is not a dependency of theirs that could close a cycle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SPECIFIER = /(?:\bfrom|\bimport|\bimport\()\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const graphs = new Map();

const isTestFile = (name) => name.endsWith('.spec.ts') || name.endsWith('.fixtures.ts');

/** The folder of src/ a file belongs to, or undefined for files outside src/ or directly in it. */
function folderOf(srcRoot, file) {
  const parts = relative(srcRoot, file).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

function sourceFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !isTestFile(entry.name) ? [path] : [];
  });
}

/** folder → the folders its non-spec files import, read once per lint run. */
function folderGraph(srcRoot, compositionRoots) {
  let graph = graphs.get(srcRoot);
  if (graph) return graph;
  graph = new Map();
  for (const file of sourceFiles(srcRoot)) {
    const from = folderOf(srcRoot, file);
    if (from === undefined) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    if (compositionRoots.includes(from)) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const to = folderOf(srcRoot, resolve(dirname(file), specifier));
      if (to !== undefined && to !== from) graph.get(from).add(to);
    }
  }
  graphs.set(srcRoot, graph);
  return graph;
}

/** A shortest path of folders from `start` to `goal`, or undefined. */
function path(graph, start, goal) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === goal) {
      const steps = [];
      for (let at = goal; at !== undefined; at = previous.get(at)) steps.unshift(at);
      return steps;
    }
    for (const next of graph.get(current) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, current);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noModuleCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles between the folders of src/' },
    schema: [
      {
        type: 'object',
        properties: { srcRoot: { type: 'string' }, compositionRoots: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: { cycle: 'src/{{from}} imports src/{{to}}, which imports it back: {{cycle}}' },
  },
  create(context) {
    const srcRoot = resolve(context.cwd, context.options[0]?.srcRoot ?? 'src');
    const compositionRoots = context.options[0]?.compositionRoots ?? [];
    const from = folderOf(srcRoot, context.filename);
    if (from === undefined || isTestFile(context.filename) || compositionRoots.includes(from)) return {};
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = folderOf(srcRoot, resolve(dirname(context.filename), specifier));
      if (to === undefined || to === from) return;
      const back = path(folderGraph(srcRoot, compositionRoots), to, from);
      if (back) context.report({ node, messageId: 'cycle', data: { from, to, cycle: [from, ...back].join(' → ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
