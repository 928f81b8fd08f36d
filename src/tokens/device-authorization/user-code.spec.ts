import { USER_CODE_ALPHABET, formatUserCode, generateUserCode, normaliseUserCode } from './user-code';

describe('user codes', () => {
  it('are 8 characters of the unambiguous alphabet', () => {
    for (let i = 0; i < 200; i++) expect(generateUserCode()).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOUY01]/);
  });

  it('are shown with a dash in the middle', () => {
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
  });

  it('are read whatever the case, dashes and spaces', () => {
    expect(normaliseUserCode('BCDF-GHJK')).toBe('BCDFGHJK');
    expect(normaliseUserCode('bcdf-ghjk')).toBe('BCDFGHJK');
    expect(normaliseUserCode(' bcdf ghjk ')).toBe('BCDFGHJK');
    expect(normaliseUserCode('BCDFGHJK')).toBe('BCDFGHJK');
  });

  it('refuse anything else', () => {
    for (const typed of ['', 'BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJ1', 'BCDF_GHJK', 'BCDF-GHJK'.padEnd(40, ' '), 'ＢCDF-GHJK']) {
      expect(normaliseUserCode(typed)).toBeUndefined();
    }
  });
});
