'use strict';
/**
 * Preloaded into the server by `bench/run.js --profile` (node -r bench/cpu-profiler.js ...): the
 * V8 CPU profiler that `node --cpu-prof` uses, but started and stopped by SIGUSR2 so the profile
 * covers only the measured run, not the boot (migrations, PGlite start) or the warm-up.
 * The first SIGUSR2 starts profiling; the next writes the profile to
 * `${BENCH_PROFILE_PREFIX}.<n>.cpuprofile` (n = 1, 2, …; readable by Chrome DevTools and
 * bench/profile-summary.js), and so on.
 */
const inspector = require('node:inspector');
const fs = require('node:fs');

const prefix = process.env.BENCH_PROFILE_PREFIX || `${process.cwd()}/profile-${process.pid}`;
let written = 0;
const session = new inspector.Session();
session.connect();
let running = false;

process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 200 }, () =>
        session.post('Profiler.start', () => process.stderr.write('[cpu-profiler] started\n')),
      ),
    );
    return;
  }
  running = false;
  const target = `${prefix}.${++written}.cpuprofile`;
  session.post('Profiler.stop', (error, result) => {
    if (error) return process.stderr.write(`[cpu-profiler] ${error.message}\n`);
    fs.writeFileSync(`${target}.tmp`, JSON.stringify(result.profile));
    fs.renameSync(`${target}.tmp`, target);
    process.stderr.write(`[cpu-profiler] wrote ${target}\n`);
  });
});
