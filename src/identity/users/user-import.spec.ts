import bcrypt from 'bcryptjs';
import { parseUserImport } from './user-import';

describe('parseUserImport', () => {
  const parse = (text: string) => [...parseUserImport(text)];

  it('reports each bad line by number and keeps going', () => {
    const lines = [
      'not json',
      '[1]',
      '{"username":"has space"}',
      '{"username":"carol","roles":["", "x"]}',
      '{"username":"carol","claims":{"sub":"9"}}',
      '{"username":"carol","password":"plain"}',
      '{"username":"carol","enabled":"yes"}',
      '{"username":"carol","password_hash":"md5$x"}',
    ];
    const results = parse(lines.join('\n'));
    expect(results.map((result) => result.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(results.every((result) => 'error' in result)).toBe(true);
    expect(results[5]).toEqual({ line: 6, error: 'unknown member "password"' });
  });

  it('reads a full record and defaults the rest', () => {
    const hash = bcrypt.hashSync('pw', 4);
    const text = `${JSON.stringify({ sub: 'c-1', username: 'carol', password_hash: hash, claims: { name: 'Carol' }, roles: ['user'], enabled: false })}\n\n{"username":"dave"}\n`;
    const [carol, dave] = parse(text);
    expect(carol).toEqual({
      line: 1,
      user: { subjectId: 'c-1', username: 'carol', passwordHash: hash, claims: { name: 'Carol' }, roles: ['user'], enabled: false },
    });
    expect(dave).toEqual({
      line: 3,
      user: { subjectId: expect.stringMatching(/^[0-9a-f-]{36}$/), username: 'dave', passwordHash: '', claims: {}, roles: [], enabled: true },
    });
  });
});
