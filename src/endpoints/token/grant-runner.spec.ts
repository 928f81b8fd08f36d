import { Logger } from '@nestjs/common';
import type { GrantContext, GrantValidator } from '../../grants/grant-validator';
import { demoResources, testClient } from '../../grants/grant.fixtures';
import { OAuthError } from '../../protocol/oauth-error';
import { GrantRunner } from './grant-runner';

const context: GrantContext = {
  grantType: 'urn:test:scripted',
  client: testClient(),
  scopes: { names: [], explicit: false },
  resources: demoResources,
  resourceIndicators: [],
  rawParameters: {},
  clientAddress: '127.0.0.1',
  receivedAt: 0,
};

function grant(validate: () => unknown, signsIn = false): GrantValidator {
  return { grantType: context.grantType, parameters: class {}, signsIn, validate: validate as GrantValidator['validate'] };
}

const answered = (code: string, status: number) => expect.objectContaining({ code, status });

describe('GrantRunner', () => {
  let runner: GrantRunner;
  let logged: string[];
  beforeEach(() => {
    runner = new GrantRunner({ seconds: 1 });
    logged = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void logged.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['42', 42],
    ['a string', 'token'],
    ['[]', []],
    ['a made-up kind', { kind: 'refresh_rotation', subject: '1' }],
    ['an error code no RFC defines for the token endpoint', { kind: 'error', error: 'invalid_token' }],
    ['an error description over 1,000 characters', { kind: 'error', error: 'invalid_grant', description: 'x'.repeat(1001) }],
  ])('answers %s 500 server_error, logged once with the grant type', async (_, value) => {
    await expect(
      runner.run(
        grant(async () => value),
        {},
        context,
      ),
    ).rejects.toEqual(answered('server_error', 500));
    expect(logged).toEqual([expect.stringContaining('grant urn:test:scripted answered a malformed result')]);
  });

  it('checks a thrown OAuthError like a returned error, and lets outages through', async () => {
    await expect(
      runner.run(
        grant(async () => Promise.reject(OAuthError.invalidToken('x'))),
        {},
        context,
      ),
    ).rejects.toEqual(answered('server_error', 500));
    await expect(
      runner.run(
        grant(async () => Promise.reject(OAuthError.invalidGrant('no'))),
        {},
        context,
      ),
    ).rejects.toEqual(answered('invalid_grant', 400));
    const outage = new OAuthError('temporarily_unavailable', 'database down');
    await expect(
      runner.run(
        grant(async () => Promise.reject(outage)),
        {},
        context,
      ),
    ).rejects.toBe(outage);
  });

  it('turns a returned error into the OAuthError', async () => {
    await expect(
      runner.run(
        grant(async () => ({ kind: 'error', error: 'slow_down' })),
        {},
        context,
      ),
    ).rejects.toEqual(answered('slow_down', 400));
  });

  it('passes a fault, thrown or rejected, on for the one 500 answer', async () => {
    const fault = new Error('boom');
    await expect(
      runner.run(
        grant(() => {
          throw fault;
        }),
        {},
        context,
      ),
    ).rejects.toBe(fault);
    await expect(
      runner.run(
        grant(() => Promise.reject(fault)),
        {},
        context,
      ),
    ).rejects.toBe(fault);
  });

  it('logs a grant failing the same way at most once a minute, then says how many it left out', async () => {
    const malformed = grant(async () => 42);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    for (let i = 0; i < 3; i++) await expect(runner.run(malformed, {}, context)).rejects.toEqual(answered('server_error', 500));
    expect(logged).toHaveLength(1);
    clock.mockReturnValue(now + 60_000);
    await expect(runner.run(malformed, {}, context)).rejects.toEqual(answered('server_error', 500));
    expect(logged).toEqual([
      expect.stringContaining('grant urn:test:scripted answered a malformed result'),
      expect.stringMatching(/answered a malformed result.*\(2 more in the minute before, not logged\)$/),
    ]);
  });

  it('answers a grant that never settles 503 temporarily_unavailable with Retry-After, after GRANT_TIMEOUT_SECONDS', async () => {
    const started = Date.now();
    const error = (await runner
      .run(
        grant(() => new Promise(() => undefined)),
        {},
        context,
      )
      .catch((caught: unknown) => caught)) as OAuthError;
    expect(error).toEqual(answered('temporarily_unavailable', 503));
    expect(error.options.retryAfterSeconds).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(logged).toEqual([expect.stringContaining('grant urn:test:scripted did not answer within 1 s')]);
  });

  it('leaves no unhandled rejection behind when a grant rejects after its time is up', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    const late = grant(() => new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 1200)));
    await expect(runner.run(late, {}, context)).rejects.toEqual(answered('temporarily_unavailable', 503));
    await new Promise((resolve) => setTimeout(resolve, 400));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('returns a well-formed success', async () => {
    await expect(
      runner.run(
        grant(async () => ({ subject: '1' })),
        {},
        context,
      ),
    ).resolves.toEqual({ kind: 'success', success: { subject: '1' } });
  });
});
