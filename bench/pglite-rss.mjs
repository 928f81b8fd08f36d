/**
 * `TPL=~/.cache/tollgate/pglite-<version>-datadir.tar [SMAPS=1] node bench/pglite-rss.mjs [postgresql.conf lines…]`:
 * the RSS of PGlite alone (no Tollgate) in a fresh temporary directory, started from Tollgate's cached empty
 * template when TPL names it (else by initdb), after 2,000 small rows; SMAPS=1 lists the mappings above 8 MB.
 * IM=<MiB> sets initialMemory. For bench/README.md, Embedded default: memory.
 */
import { PGlite } from '@electric-sql/pglite';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024);
const args = process.argv.slice(2);
const before = rss();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'i31-pgl-'));
const tpl = process.env.TPL;
const loadDataDir = tpl ? new Blob([fs.readFileSync(tpl)]) : undefined;
const db = await PGlite.create(dir, {
  ...(process.env.IM ? { initialMemory: Number(process.env.IM) * 2 ** 20 } : {}),
  ...(args.length ? { postgresqlconf: args } : {}),
  ...(loadDataDir ? { loadDataDir } : {}),
});
await db.query('create table t(id serial primary key, v text)');
for (let i = 0; i < 20; i++) await db.query("insert into t(v) select repeat('x',200) from generate_series(1,100)");
await db.query('select count(*) from t');
const sb = (await db.query('show shared_buffers')).rows[0];
const wb = (await db.query('show wal_buffers')).rows[0];
console.log(
  JSON.stringify({
    args,
    before,
    after: rss(),
    shared_buffers: sb,
    wal_buffers: wb,
    heap: Number(/** @type {any} the Emscripten module, not public */ (db).mod?.HEAP8?.length) / 2 ** 20,
  }),
);
if (process.env.SMAPS) {
  const t = fs.readFileSync('/proc/self/smaps', 'utf8').split('\n');
  let cur = '';
  /** @type {[number, string][]} */
  const out = [];
  for (const l of t) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(l)) {
      cur = l;
    } else if (l.startsWith('Rss:')) {
      const kb = Number(l.split(/\s+/)[1]);
      if (kb > 8000) out.push([Math.round(kb / 1024), cur.slice(0, 120)]);
    }
  }
  out.sort((a, b) => b[0] - a[0]);
  console.log(out.map((x) => x.join(' MB ')).join('\n'));
}
await db.close();
fs.rmSync(dir, { recursive: true, force: true });
