'use strict';
/**
 * What reading the delegation grant's parameters costs, in machine instructions (valgrind callgrind):
 * `readGrantParameters` with the grant's class-validator DTO as the token endpoint does it, its parts
 * (`pickParameters` alone; pick + `plainToInstance`; pick + `new` + `validateSync`), and the hand-written check it replaced
 * (`token`: present, a single string, not empty, at most 16 KiB). Each way runs twice under
 * callgrind, with N and with 0 counted reads after the same warm-up; the difference divided by N is
 * its cost per request. Reads the build: run `npm run build` first.
 *
 * Usage: node bench/dto-cost.js [N=20000] [way,way…]
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const WARMUP = 5000;
const WAYS = ['hand check', 'pickParameters', 'pick + plainToInstance', 'readGrantParameters', 'pick + new + validateSync'];
const DIST = path.resolve(__dirname, '..', 'dist', 'src');

/** The child: reads the same delegation body `count` times after the warm-up, one way. */
function readMany(way, count) {
  require('reflect-metadata');
  const { plainToInstance } = require('class-transformer');
  const { validateSync } = require('class-validator');
  const { MAX_PARAMETER_LENGTH, pickParameters } = require(path.join(DIST, 'oauth', 'form'));
  const { ParameterSchema } = require(path.join(DIST, 'oauth', 'form-parameters'));
  const { readGrantParameters } = require(path.join(DIST, 'grants', 'grant-parameters'));
  const { DelegationParameters } = require(path.join(DIST, 'grants', 'delegation.grant-validator'));
  // The body of bench/run.js's delegation scenario, with a token of the usual size.
  const body = { grant_type: 'delegation', scope: 'api2', token: `eyJ${'a'.repeat(900)}.${'b'.repeat(342)}` };
  const schema = ParameterSchema.of(DelegationParameters);
  const read = {
    'hand check': () => {
      const token = Object.prototype.hasOwnProperty.call(body, 'token') ? body.token : undefined;
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_PARAMETER_LENGTH) throw new Error('bad token');
      return { token };
    },
    pickParameters: () => pickParameters(body, schema.names, schema.repeatable, schema.longer),
    'pick + plainToInstance': () => plainToInstance(DelegationParameters, pickParameters(body, schema.names, schema.repeatable, schema.longer)),
    readGrantParameters: () => readGrantParameters(DelegationParameters, body, 'invalid_grant'),
    // readGrantParameters with the instance made by Object.assign instead of class-transformer.
    'pick + new + validateSync': () => {
      const parameters = Object.assign(new DelegationParameters(), pickParameters(body, schema.names, schema.repeatable, schema.longer));
      if (validateSync(parameters, { stopAtFirstError: true, forbidUnknownValues: false, validationError: { target: false } }).length > 0)
        throw new Error('refused');
      return parameters;
    },
  }[way];
  let sink = 0;
  for (let i = 0; i < WARMUP + count; i++) sink += read().token.length;
  if (sink === 0) throw new Error('nothing read');
}

function instructions(way, count) {
  const args = ['--tool=callgrind', '--smc-check=all-non-file', '--callgrind-out-file=/dev/null', process.execPath, __filename, '--child', way, String(count)];
  const result = spawnSync('valgrind', args, { encoding: 'utf8' });
  const collected = /Collected : (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !collected) throw new Error(`valgrind failed for ${way}: ${result.stderr.slice(-500)}`);
  return Number(collected[1]);
}

if (process.argv[2] === '--child') {
  readMany(process.argv[3], Number(process.argv[4]));
} else {
  const count = Number(process.argv[2] ?? 20000);
  const ways = process.argv[3] ? process.argv[3].split(',') : WAYS;
  if (ways.some((way) => !WAYS.includes(way))) throw new Error(`ways are: ${WAYS.join(', ')}`);
  console.log(`Reading the delegation grant's parameters, instructions per request (callgrind, ${count} reads):`);
  for (const way of ways) console.log(`${way.padEnd(24)} ${Math.round((instructions(way, count) - instructions(way, 0)) / count)}`);
}
