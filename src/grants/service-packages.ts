import Module, { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * The packages an extension shares with the service: wherever the extension file lies (a mounted
 * `/extensions`, a temporary directory), these names and their subpaths resolve as if the service
 * itself imported them, so the extension gets the very `OAuthError`, decorators and validators the
 * service runs. `tollgate` is the service's own package (a self-reference through its `exports`).
 */
export const SHARED_PACKAGES: readonly string[] = ['tollgate', '@nestjs/common', '@nestjs/core', 'class-validator'];

export function isSharedPackage(specifier: string): boolean {
  return SHARED_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

type ResolveContext = { parentURL?: string; conditions?: readonly string[] };
type NextResolve = (specifier: string, context?: ResolveContext) => unknown;
interface ModuleHooks {
  registerHooks?: (hooks: { resolve: (specifier: string, context: ResolveContext, next: NextResolve) => unknown }) => unknown;
  register?: (specifier: string, options: { data: unknown }) => void;
  _resolveFilename: (request: string, parent: unknown, ...rest: unknown[]) => string;
}

// The same redirection for the ESM loader's thread where only `module.register` exists (Node < 22.15).
const ASYNC_HOOKS = `let parentURL, names;
export async function initialize(data) { ({ parentURL, names } = data); }
export async function resolve(specifier, context, next) {
  const shared = names.some((name) => specifier === name || specifier.startsWith(name + '/'));
  return next(specifier, shared ? { ...context, parentURL } : context);
}`;

let installed = false;

/**
 * Makes the shared packages resolve to the service's copies, for CommonJS `require` and ESM `import`
 * alike, without `NODE_PATH`: Node's synchronous resolution hooks where there are (`module.registerHooks`,
 * Node >= 22.15), else a `require` resolution wrapper limited to these names plus an ESM resolve hook.
 * Installed once, and only when extensions are configured.
 */
export function shareServicePackages(): void {
  if (installed) return;
  installed = true;
  const parentURL = pathToFileURL(__filename).href;
  const hooks = Module as unknown as ModuleHooks;
  if (typeof hooks.registerHooks === 'function') {
    // The file the service itself loads for the name: `require` of a CommonJS file resolves from its
    // parent module, not from `parentURL`, so the answer is given here rather than redirected.
    const serviceRequire = createRequire(__filename);
    hooks.registerHooks({
      resolve: (specifier, context, next) => {
        const path = isSharedPackage(specifier) ? resolvedOrUndefined(() => serviceRequire.resolve(specifier)) : undefined;
        return path === undefined ? next(specifier, context) : { url: pathToFileURL(path).href, shortCircuit: true };
      },
    });
    return;
  }
  const resolveFilename = hooks._resolveFilename;
  hooks._resolveFilename = function (this: unknown, request: string, parent: unknown, ...rest: unknown[]) {
    return resolveFilename.call(this, request, isSharedPackage(request) ? module : parent, ...rest);
  };
  hooks.register?.(`data:text/javascript,${encodeURIComponent(ASYNC_HOOKS)}`, { data: { parentURL, names: SHARED_PACKAGES } });
}

function resolvedOrUndefined(resolve: () => string): string | undefined {
  try {
    return resolve();
  } catch {
    return undefined;
  }
}
