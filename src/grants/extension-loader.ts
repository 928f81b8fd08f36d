import type { DynamicModule } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TollgateMigration } from '../platform/database/database.config';
import { StartupFailure } from '../platform/logging/startup-failure';
import { recordGrantOrigin } from './grant-origins';
import { exportedGrantValidators, type GrantModule } from './grant-modules';
import { shareServicePackages } from './service-packages';

/** One file of `TOLLGATE_EXTENSIONS`: its Nest modules and the migrations that bring its clients. */
export interface Extension {
  readonly path: string;
  readonly modules: readonly GrantModule[];
  readonly migrations: readonly TollgateMigration[];
}

// A real `import()`, which the CommonJS build would otherwise turn into `require()`: it loads ESM and
// CommonJS files alike, through the resolution hooks of service-packages.ts on every Node version.
const importFile = new Function('url', 'return import(url)') as (url: string) => Promise<Record<string, unknown>>;

/**
 * Loads the JavaScript modules of `TOLLGATE_EXTENSIONS` in order (docs/extending.md#3-a-container-extension).
 * Any failure stops the start with one line naming the file.
 */
export async function loadExtensions(paths: readonly string[] = []): Promise<Extension[]> {
  if (paths.length === 0) return [];
  shareServicePackages();
  const extensions: Extension[] = [];
  for (const path of paths) extensions.push(await loadExtension(path));
  return extensions;
}

async function loadExtension(path: string): Promise<Extension> {
  const file = resolve(path);
  if (!existsSync(file)) throw new StartupFailure(`TOLLGATE_EXTENSIONS: ${path} does not exist`);
  let namespace: Record<string, unknown>;
  try {
    namespace = await importFile(pathToFileURL(file).href);
  } catch (error) {
    throw new StartupFailure(`TOLLGATE_EXTENSIONS: ${path} failed to load: ${firstLine(error)}`, { cause: error });
  }
  const modules = nestModulesOf(namespace);
  if (modules.length === 0) throw new StartupFailure(`TOLLGATE_EXTENSIONS: ${path} exports no Nest module`);
  for (const module of modules) {
    try {
      for (const validator of exportedGrantValidators(module)) recordGrantOrigin(validator, `TOLLGATE_EXTENSIONS ${path}`);
    } catch (error) {
      throw new StartupFailure(`TOLLGATE_EXTENSIONS: ${path}: ${firstLine(error)}`, { cause: error });
    }
  }
  return { path, modules, migrations: migrationsOf(path, namespace) };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/** The Nest modules among a JavaScript module's exports (CommonJS `module.exports` arrives as `default`). */
function nestModulesOf(namespace: Record<string, unknown>): GrantModule[] {
  const candidates = [...exportedValues(namespace)];
  return [...new Set(candidates.filter((value) => isModuleClass(value) || isDynamicModule(value)))] as GrantModule[];
}

function exportedValues(namespace: Record<string, unknown>): unknown[] {
  const { default: defaultExport, ...named } = namespace;
  const values = [defaultExport, ...Object.values(named)];
  if (isPlainExports(defaultExport)) values.push(...Object.values(defaultExport));
  return values;
}

/** `migrations`: an array of TypeORM migration classes, applied with Tollgate's own. */
function migrationsOf(path: string, namespace: Record<string, unknown>): TollgateMigration[] {
  const { default: defaultExport } = namespace;
  const migrations = 'migrations' in namespace ? namespace.migrations : isPlainExports(defaultExport) ? defaultExport.migrations : undefined;
  if (migrations === undefined) return [];
  if (!Array.isArray(migrations) || !migrations.every(isMigrationClass)) {
    throw new StartupFailure(`TOLLGATE_EXTENSIONS: ${path}: migrations must be an array of migration classes (each with up and down)`);
  }
  return migrations;
}

function isMigrationClass(value: unknown): value is TollgateMigration {
  const prototype = typeof value === 'function' ? (value.prototype as Record<string, unknown> | undefined) : undefined;
  return typeof prototype?.up === 'function' && typeof prototype.down === 'function';
}

function isPlainExports(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !isDynamicModule(value);
}

function isModuleClass(value: unknown): boolean {
  return typeof value === 'function' && Object.values(MODULE_METADATA).some((key) => Reflect.hasOwnMetadata(key, value));
}

function isDynamicModule(value: unknown): value is DynamicModule {
  return value !== null && typeof value === 'object' && typeof (value as { module?: unknown }).module === 'function';
}
