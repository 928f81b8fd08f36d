import fc from 'fast-check';
import { hasDuplicateKeys, MAX_JSON_DEPTH, parseJsonObject, readJsonDocument } from './json-object';

describe('parseJsonObject', () => {
  it.each([
    ['not JSON', '{"sub":"1",'],
    ['an empty text', ''],
    ['an array', '[{"sub":"1"}]'],
    ['a string', '"sub"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('refuses %s', (_, text) => {
    expect(parseJsonObject(text)).toBeUndefined();
  });

  it.each([
    ['a repeated member', '{"sub":"1","sub":"2"}'],
    ['a repeated member in other spelling', '{"sub":"1","\\u0073ub":"2"}'],
    ['a repeated member with the same value', '{"alg":"RS256","alg":"RS256"}'],
    ['a repeated member in a nested object', '{"act":{"client_id":"a","client_id":"b"}}'],
    ['a repeated member in an object inside an array', '{"list":[1,{"a":1,"a":2}]}'],
    ['a repeated __proto__', '{"__proto__":1,"__proto__":2}'],
  ])('refuses %s', (_, text) => {
    expect(parseJsonObject(text)).toBeUndefined();
  });

  it('returns the object when every name is unique within its own object', () => {
    const text = '{"sub":"1","act":{"sub":"x","act":{"sub":"y"}},"aud":["sub","sub"],"s":"\\"sub\\":"}';
    expect(parseJsonObject(text)).toEqual({ sub: '1', act: { sub: 'x', act: { sub: 'y' } }, aud: ['sub', 'sub'], s: '"sub":' });
  });

  it('keeps __proto__ and constructor as plain own members', () => {
    const parsed = parseJsonObject('{"__proto__":{"admin":true},"constructor":1}');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed ?? {})).toEqual(['__proto__', 'constructor']);
  });
});

describe('hasDuplicateKeys', () => {
  it('finds no duplicate in anything JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => !hasDuplicateKeys(JSON.stringify(value))),
      { seed: 42, numRuns: 500 },
    );
  });

  it('finds a member written twice anywhere in an object, however its name is escaped', () => {
    const escapedName = (name: string) =>
      `"${name
        .split('')
        .map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('')}"`;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue(), { minKeys: 1 }), fc.nat(), fc.boolean(), (object, pick, escape) => {
        const members = Object.entries(object).map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
        const [name] = Object.entries(object)[pick % members.length];
        members.splice(pick % (members.length + 1), 0, `${escape ? escapedName(name) : JSON.stringify(name)}:0`);
        return hasDuplicateKeys(`{${members.join(',')}}`) && hasDuplicateKeys(`[{"x":{${members.join(',')}}}]`);
      }),
      { seed: 42, numRuns: 500 },
    );
  });
});

describe('readJsonDocument', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it.each([
    ['not JSON', '{"client_id":', 'not JSON'],
    ['an empty text', '', 'not JSON'],
    ['arrays nested 10,000 deep', nested(10_000), 'nested deeper than 32 levels'],
    ['objects nested one level too deep', `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`, 'nested deeper than 32 levels'],
    ['a member named twice', '{"redirect_uris":["a"],"redirect_uris":["b"]}', 'the member "redirect_uris" is named twice'],
    ['a member named twice in other spelling, in a key', '{"keys":[{"kty":"EC","\\u006bty":"RSA"}]}', 'the member "kty" is named twice'],
  ])('refuses %s', (_, text, reason) => {
    expect(() => readJsonDocument(text)).toThrow(reason);
  });

  it('reads any JSON value up to the depth, with brackets inside strings not counted', () => {
    expect(readJsonDocument(nested(MAX_JSON_DEPTH))).toEqual(JSON.parse(nested(MAX_JSON_DEPTH)));
    expect(readJsonDocument(`{"s":"${'['.repeat(100)}","n":[1,{"a":[]}]}`)).toEqual({ s: '['.repeat(100), n: [1, { a: [] }] });
    expect(readJsonDocument('"text"')).toBe('text');
  });
});
