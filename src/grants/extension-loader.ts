import type { DynamicModule } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { resolve } from 'node:path';
import { exportedGrantValidators, type GrantModule } from '../grants/grant-modules';

/**
 * Loads the JavaScript modules of `TOLLGATE_EXTENSIONS` and returns the Nest modules they export
 * (docs/extending.md#container-extensions). Any failure stops the start, naming the file.
 */
export async function loadExtensions(paths: readonly string[] = []): Promise<GrantModule[]> {
  const modules: GrantModule[] = [];
  for (const path of paths) modules.push(...(await loadExtension(path)));
  return modules;
}

async function loadExtension(path: string): Promise<GrantModule[]> {
  let namespace: Record<string, unknown>;
  try {
    // An absolute path, not a file: URL: the CommonJS build loads it with require() (scripts/build.mjs).
    namespace = (await import(resolve(path))) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`TOLLGATE_EXTENSIONS: ${path} failed to load: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const modules = nestModulesOf(namespace);
  if (modules.length === 0) throw new Error(`TOLLGATE_EXTENSIONS: ${path} exports no Nest module`);
  for (const module of modules) {
    try {
      exportedGrantValidators(module);
    } catch (error) {
      throw new Error(`TOLLGATE_EXTENSIONS: ${path}: ${(error as Error).message}`, { cause: error });
    }
  }
  return modules;
}

/** The Nest modules among a JavaScript module's exports (CommonJS `module.exports` arrives as `default`). */
function nestModulesOf(namespace: Record<string, unknown>): GrantModule[] {
  const { default: defaultExport, ...named } = namespace;
  const candidates = [defaultExport, ...Object.values(named)];
  if (defaultExport !== null && typeof defaultExport === 'object' && !isDynamicModule(defaultExport)) {
    candidates.push(...Object.values(defaultExport));
  }
  return [...new Set(candidates.filter((value) => isModuleClass(value) || isDynamicModule(value)))] as GrantModule[];
}

function isModuleClass(value: unknown): boolean {
  return typeof value === 'function' && Object.values(MODULE_METADATA).some((key) => Reflect.hasOwnMetadata(key, value));
}

function isDynamicModule(value: unknown): value is DynamicModule {
  return value !== null && typeof value === 'object' && typeof (value as { module?: unknown }).module === 'function';
}
