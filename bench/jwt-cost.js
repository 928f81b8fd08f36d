'use strict';
/**
 * What verifying one RS256 access token costs, in machine instructions (valgrind callgrind), with
 * the bare `node:crypto` calls the baseline makes, with `@nestjs/jwt` (jsonwebtoken) as Tollgate
 * does, and with `jose`. Each way runs twice under callgrind, with N and with 0 counted
 * verifications after the same warm-up; the difference divided by N is its cost per token.
 *
 * The node:crypto way does what bench/baseline.js verify() does (header, signature, iss/exp/nbf).
 *
 * Usage: node bench/jwt-cost.js [N=2000]
 */
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');

const WARMUP = 3000;
const WAYS = ['node:crypto', '@nestjs/jwt', 'jose'];

/** The child: verifies the same token `count` times after the warm-up, one way. */
async function verifyMany(way, count) {
  const { JwtService } = require('@nestjs/jwt');
  const jose = require('jose');
  // The parent's key, so that both runs of a way do the same work outside the counted verifications.
  const privateKey = crypto.createPrivateKey(String(process.env.JWT_COST_KEY));
  const publicKey = crypto.createPublicKey(privateKey);
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: 'http://localhost:5000',
    sub: '1',
    aud: 'http://localhost:5000/resources',
    client_id: 'frontend',
    scope: 'openid profile email role',
    iat: now,
    nbf: now,
    exp: now + 3600,
    jti: 'AAAAAAAAAAAAAAAAAAAAAA',
    auth_time: now,
    amr: ['pwd'],
  };
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'at+jwt', kid: 'k1' })}.${encode(claims)}`;
  const token = `${input}.${crypto.sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
  const jwt = new JwtService({});
  const verify = {
    // What bench/baseline.js verify() does: header checks, signature, claims checks.
    'node:crypto': () => {
      const [header, payload, signature] = token.split('.');
      const { typ, alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString());
      if (typ !== 'at+jwt' || alg !== 'RS256' || kid !== 'k1') throw new Error('bad header');
      if (!crypto.verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))) throw new Error('bad signature');
      const verified = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const seconds = Math.floor(Date.now() / 1000);
      if (verified.iss !== claims.iss || !(verified.exp > seconds - 60) || verified.nbf > seconds + 60) throw new Error('bad claims');
      return verified;
    },
    '@nestjs/jwt': () =>
      jwt.verify(token, {
        publicKey: /** @type {any} KeyObject: @nestjs/jwt's types name only PEM */ (publicKey),
        algorithms: ['RS256'],
        issuer: claims.iss,
        clockTolerance: 60,
      }),
    jose: () => jose.jwtVerify(token, publicKey, { algorithms: ['RS256'], issuer: claims.iss, clockTolerance: 60 }),
  }[way];
  for (let i = 0; i < WARMUP + count; i++) await verify();
}

function instructions(way, count, key) {
  const args = ['--tool=callgrind', '--smc-check=all-non-file', '--callgrind-out-file=/dev/null', process.execPath, __filename, '--child', way, String(count)];
  const result = spawnSync('valgrind', args, { encoding: 'utf8', env: { ...process.env, JWT_COST_KEY: key } });
  const collected = /Collected : (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !collected) throw new Error(`valgrind failed for ${way}: ${result.stderr.slice(-500)}`);
  return Number(collected[1]);
}

if (process.argv[2] === '--child') {
  verifyMany(process.argv[3], Number(process.argv[4]));
} else {
  const count = Number(process.argv[2] ?? 2000);
  const key = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
  console.log(`RS256 verification of one access token, instructions per token (callgrind, ${count} verifications):`);
  for (const way of WAYS) console.log(`${way.padEnd(12)} ${Math.round((instructions(way, count, key) - instructions(way, 0, key)) / count)}`);
}
