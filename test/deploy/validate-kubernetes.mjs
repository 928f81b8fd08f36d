// Validates Kubernetes objects (a JSON array on stdin) against the API schemas of kubernetes-models,
// offline. Prints one JSON array: per object, its kind, name and the validation error if any.
// A plain ES module run by node: kubernetes-models is ESM-only, which jest's CommonJS run cannot load.
import { readFileSync } from 'node:fs';

const objects = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const object of objects) {
  const entry = { kind: object.kind, name: object.metadata?.name };
  try {
    const module = await import(`kubernetes-models/${object.apiVersion}`);
    const Model = module[object.kind];
    if (!Model) throw new Error(`no model for ${object.apiVersion} ${object.kind}`);
    new Model(object).validate();
  } catch (error) {
    entry.error = error instanceof Error ? error.message : String(error);
  }
  results.push(entry);
}
process.stdout.write(JSON.stringify(results));
