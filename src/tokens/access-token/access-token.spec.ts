import { actorDepth, mayActFor, readActorClaim, readMayActClaim, type ActorClaim } from './access-token';

/** An `act` chain of `depth` clients, outermost first: client-1 → client-2 → … */
function chain(depth: number, index = 1): ActorClaim {
  return index === depth ? { client_id: `client-${index}` } : { client_id: `client-${index}`, act: chain(depth, index + 1) };
}

describe('readActorClaim', () => {
  it.each([
    ['null', null],
    ['a string', 'api1'],
    ['an array', [{ client_id: 'api1' }]],
    ['an object without client_id', { sub: 'api1' }],
    ['a numeric client_id', { client_id: 42 }],
    ['a malformed nested act', { client_id: 'api1', act: { client_id: null } }],
    ['a nested act that is not an object', { client_id: 'api1', act: 'frontend' }],
  ])('rejects %s', (_, value) => {
    expect(readActorClaim(value)).toBeUndefined();
  });

  it('rejects a chain nested 9 deep', () => {
    expect(readActorClaim(chain(9))).toBeUndefined();
  });

  it('reads a chain nested exactly 8 deep', () => {
    expect(readActorClaim(chain(8))).toEqual(chain(8));
  });

  it('keeps only client_id and act, dropping other members', () => {
    expect(readActorClaim({ client_id: 'api1', sub: 'x', act: { client_id: 'frontend', iss: 'y' } })).toEqual({
      client_id: 'api1',
      act: { client_id: 'frontend' },
    });
  });
});

describe('actorDepth', () => {
  it('counts the actors of a chain, 0 for none', () => {
    expect([actorDepth(undefined), actorDepth({ client_id: 'api1' }), actorDepth(chain(8))]).toEqual([0, 1, 8]);
  });
});

describe('readMayActClaim', () => {
  it.each([
    ['a string', 'api1'],
    ['an array', [{ client_id: 'api1' }]],
    ['null', null],
    ['an empty object', {}],
    ['a numeric client_id', { client_id: 1 }],
    ['a numeric sub', { sub: 2 }],
  ])('refuses %s', (_, value) => {
    expect(readMayActClaim(value)).toBeUndefined();
  });

  it('reads client_id and sub, dropping other members', () => {
    expect(readMayActClaim({ client_id: 'api1', sub: 'svc', iss: 'x' })).toEqual({ client_id: 'api1', sub: 'svc' });
    expect(readMayActClaim({ sub: 'svc' })).toEqual({ sub: 'svc' });
  });
});

describe('mayActFor', () => {
  it('allows any client when the token has no may_act', () => {
    expect(mayActFor(undefined, 'api1')).toBe(true);
  });

  it('allows only the client named by client_id or sub', () => {
    expect(mayActFor({ client_id: 'api1' }, 'api1')).toBe(true);
    expect(mayActFor({ sub: 'api1' }, 'api1')).toBe(true);
    expect(mayActFor({ client_id: 'api1' }, 'api2')).toBe(false);
    expect(mayActFor({ client_id: 'api1', sub: 'api3' }, 'api2')).toBe(false);
  });
});
