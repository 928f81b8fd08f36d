import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteTemplate, type DumpableDatabase } from './pglite-template';

describe('PgliteTemplate', () => {
  let cache: string;
  beforeEach(async () => {
    cache = await mkdtemp(join(tmpdir(), 'tollgate-template-'));
  });
  afterEach(() => rm(cache, { recursive: true, force: true }));

  const dumping = (bytes: string): DumpableDatabase => ({ dumpDataDir: async () => new Blob([bytes]) });
  const failing: DumpableDatabase = { dumpDataDir: () => Promise.reject(new Error('no space left')) };

  it('reads nothing before anything was saved, and nothing after a failed save', async () => {
    const template = PgliteTemplate.forInstalledVersion(undefined, cache);
    await expect(template.read()).resolves.toBeUndefined();
    await template.save(failing);
    await expect(template.read()).resolves.toBeUndefined();
    expect(await readdir(cache)).toEqual([]);
  });

  it('reads back what it saved, and nothing once discarded', async () => {
    const template = PgliteTemplate.forInstalledVersion(undefined, cache);
    await template.save(dumping('empty data directory'));
    await expect((await template.read())!.text()).resolves.toBe('empty data directory');
    await template.discard();
    await expect(template.read()).resolves.toBeUndefined();
  });

  it('keeps one migrated template per PGlite version beside the empty one: a new schema replaces the older', async () => {
    await PgliteTemplate.forInstalledVersion(undefined, cache).save(dumping('empty'));
    await PgliteTemplate.forInstalledVersion('schemaA', cache).save(dumping('migrated A'));
    await writeFile(join(cache, 'unrelated.tar'), 'kept');
    const schemaB = PgliteTemplate.forInstalledVersion('schemaB', cache);
    await schemaB.save(dumping('migrated B'));

    const files = (await readdir(cache)).sort();
    expect(files).toHaveLength(3);
    expect(files.filter((file) => file.includes('-schema-'))).toEqual([expect.stringMatching(/-schema-schemaB\.tar$/)]);
    expect(files).toContain('unrelated.tar');
    await expect(PgliteTemplate.forInstalledVersion('schemaA', cache).read()).resolves.toBeUndefined();
    await expect((await schemaB.read())!.text()).resolves.toBe('migrated B');
    await expect((await PgliteTemplate.forInstalledVersion(undefined, cache).read())!.text()).resolves.toBe('empty');
  });
});
