// Two rules on the folders of src/ and cli/ (docs/architecture.md):
// - `layer-order`: a file imports only from its own layer or the layers below it (`layers`, bottom first);
//   the files directly in src/ assemble the application and sit above every layer, cli/ above them.
//   Specs and fixtures are exempt.
// - `no-module-cycle`: no cycle between modules (a layer's sub-folder, e.g. src/identity/clients), type
//   imports included: `import-x/no-cycle` sees only file-level cycles and skips `import type`, but a folder
//   that needs another which needs it back is one module split in two, however the files are arranged.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SPECIFIER = /(?:\bfrom|\bimport|\bimport\()\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const ROOTS = ['src', 'cli'];
const graphs = new Map();

const isTestFile = (name) => name.endsWith('.spec.ts') || name.endsWith('.fixtures.ts');

/** `src/<layer>` for a file of a layer, `src` for the files directly in src/, `cli`; undefined elsewhere. */
function layerOf(cwd, file, layers) {
  const parts = relative(cwd, file).split(sep);
  if (parts[0] === 'cli') return 'cli';
  if (parts[0] !== 'src') return undefined;
  return parts.length > 2 && layers.includes(parts[1]) ? parts[1] : 'src';
}

/** The module a file belongs to: a layer's sub-folder, or the layer itself for its own files. */
function moduleOf(cwd, file, layers) {
  const parts = relative(cwd, file).split(sep);
  if (!ROOTS.includes(parts[0]) || parts.length < 3) return undefined;
  if (parts[0] === 'src' && layers.includes(parts[1])) return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
  return parts.slice(0, 2).join('/');
}

function sourceFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !isTestFile(entry.name) ? [path] : [];
  });
}

/** module → the modules its non-spec files import, read once per lint run. */
function moduleGraph(cwd, layers) {
  let graph = graphs.get(cwd);
  if (graph) return graph;
  graph = new Map();
  for (const file of ROOTS.flatMap((root) => sourceFiles(join(cwd, root)))) {
    const from = moduleOf(cwd, file, layers);
    if (from === undefined) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const to = moduleOf(cwd, resolve(dirname(file), specifier), layers);
      if (to !== undefined && to !== from) graph.get(from).add(to);
    }
  }
  graphs.set(cwd, graph);
  return graph;
}

/** A shortest path of modules from `start` to `goal`, or undefined. */
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

const schema = [
  {
    type: 'object',
    properties: { layers: { type: 'array', items: { type: 'string' } } },
    required: ['layers'],
    additionalProperties: false,
  },
];

function importChecks(check) {
  return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
}

const target = (context, node) => {
  const specifier = node.source?.value;
  return typeof specifier === 'string' && specifier.startsWith('.') ? resolve(dirname(context.filename), specifier) : undefined;
};

/** @type {import('eslint').Rule.RuleModule} */
export const layerOrder = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports from an outer layer into an inner one' },
    schema,
    messages: {
      upward: '{{from}} is below {{to}}: it may import only from {{allowed}} (docs/architecture.md)',
      outside: 'src/{{folder}}/ is in no layer: move it into one of src/{{layers}} (docs/architecture.md)',
    },
  },
  create(context) {
    const { layers } = context.options[0];
    const order = [...layers, 'src', 'cli'];
    const parts = relative(context.cwd, context.filename).split(sep);
    if (parts[0] === 'src' && parts.length > 2 && !layers.includes(parts[1])) {
      return { Program: (node) => context.report({ node, messageId: 'outside', data: { folder: parts[1], layers: `{${layers.join(',')}}` } }) };
    }
    const from = layerOf(context.cwd, context.filename, layers);
    // Specs and fixtures may borrow from anywhere (the demo data set, a grant's fixtures).
    if (from === undefined || isTestFile(context.filename)) return {};
    return importChecks((node) => {
      const file = target(context, node);
      const to = file && layerOf(context.cwd, file, layers);
      if (to === undefined || order.indexOf(to) <= order.indexOf(from)) return;
      const allowed = order.slice(0, order.indexOf(from) + 1).join(', ');
      context.report({ node, messageId: 'upward', data: { from, to, allowed } });
    });
  },
};

/** @type {import('eslint').Rule.RuleModule} */
export const noModuleCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles between the modules (folders) of src/ and cli/' },
    schema,
    messages: { cycle: '{{from}} imports {{to}}, which imports it back: {{cycle}}' },
  },
  create(context) {
    const { layers } = context.options[0];
    const from = moduleOf(context.cwd, context.filename, layers);
    if (from === undefined || isTestFile(context.filename)) return {};
    return importChecks((node) => {
      const file = target(context, node);
      const to = file && moduleOf(context.cwd, file, layers);
      if (to === undefined || to === from) return;
      const back = path(moduleGraph(context.cwd, layers), to, from);
      if (back) context.report({ node, messageId: 'cycle', data: { from, to, cycle: [from, ...back].join(' → ') } });
    });
  },
};
