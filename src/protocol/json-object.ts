/**
 * Parses JSON text that must be one object with no member name twice. RFC 7515 §5.2 and RFC 7519
 * §7.2 let a JWT with duplicate header or claim names be rejected, and we do: `JSON.parse` keeps
 * the last duplicate while other parsers keep the first, so two readers of one token could
 * disagree about its `sub` or `alg`. Returns undefined for anything else.
 */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return hasDuplicateKeys(text) ? undefined : (value as Record<string, unknown>);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether any object in `text` names a member twice, after unescaping (`"sub"` and `"\u0073ub"` are
 * one name). `text` must already be valid JSON: this is a single pass that tracks only where it is.
 */
export function hasDuplicateKeys(text: string): boolean {
  return structureProblem(text, Infinity) !== undefined;
}

/** How deeply JSON from outside may nest objects and arrays: client metadata needs 4 (`jwks.keys[].x5c[]`). */
export const MAX_JSON_DEPTH = 32;

/**
 * Reads JSON that a client sent or published (a registration, a client ID metadata document, a JWK
 * Set); throws an Error saying why it cannot be used: not JSON; nested deeper than MAX_JSON_DEPTH
 * (JSON.parse reads any depth, but JSON.stringify, the database driver and structuredClone recurse,
 * and overflow the stack at about 10,000 levels); or a member named twice (RFC 8259 §4 leaves the
 * meaning to each parser: `JSON.parse` keeps the last, others the first).
 */
export function readJsonDocument(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  const problem = structureProblem(text, MAX_JSON_DEPTH);
  if (problem) throw new Error(problem);
  return value;
}

/**
 * Why valid JSON `text` is refused: an object naming a member twice, or objects and arrays nested
 * deeper than `maxDepth`; undefined when neither. A single pass that tracks only where it is.
 */
function structureProblem(text: string, maxDepth: number): string | undefined {
  // One entry per open object or array: the names seen so far, or null for an array.
  const open: (Set<string> | null)[] = [];
  let expectingName = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) {
      const end = closingQuote(text, index);
      const names = open[open.length - 1];
      if (names && expectingName) {
        const raw = text.slice(index + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(text.slice(index, end + 1)) as string) : raw;
        if (names.has(name)) return `the member "${name.slice(0, 40)}" is named twice`;
        names.add(name);
        expectingName = false;
      }
      index = end;
    } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      if (open.push(char === 0x7b ? new Set() : null) > maxDepth) return `nested deeper than ${maxDepth} levels`;
      expectingName = char === 0x7b;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      open.pop();
    } else if (char === 0x2c /* , */) {
      expectingName = open[open.length - 1] !== null;
    }
  }
  return undefined;
}

/** The index of the quote that ends the string opening at `start`. */
function closingQuote(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end > 0) {
    let backslashes = 0;
    for (let before = end - 1; text.charCodeAt(before) === BACKSLASH; before--) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return text.length;
}
