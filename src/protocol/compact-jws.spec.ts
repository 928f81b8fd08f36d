import fc from 'fast-check';
import { isCanonicalBase64url, isCanonicalCompactJws } from './compact-jws';

const reencoded = (text: string) => Buffer.from(text, 'base64url').toString('base64url');
const base64urlText = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), maxLength: 64 });

describe('isCanonicalBase64url', () => {
  it.each([
    ['padding', 'QQ=='],
    ['the spare bits of a one-byte tail set', 'QR'],
    ['the spare bits of a two-byte tail set', 'QUF'],
    ['a length no byte string encodes to', 'QUFBQ'],
    ['base64 "+" and "/"', 'ab+/'],
    ['whitespace', 'QUFB\n'],
    ['a dot', 'QU.B'],
  ])('refuses %s', (_, segment) => {
    expect(isCanonicalBase64url(segment)).toBe(false);
  });

  it.each(['', 'QQ', 'QUE', 'QUFB', '-_-_'])('accepts "%s"', (segment) => {
    expect(isCanonicalBase64url(segment)).toBe(true);
  });

  it('accepts the encoding of any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => isCanonicalBase64url(Buffer.from(bytes).toString('base64url'))));
  });

  it('agrees with decoding and encoding again, for base64url text and for any text', () => {
    fc.assert(
      fc.property(fc.oneof(base64urlText, fc.string({ maxLength: 64 })), (text) => isCanonicalBase64url(text) === (reencoded(text) === text)),
      { numRuns: 2000 },
    );
  });

  it('refuses every other spelling of the same bytes that a decoder accepts', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 300 }).filter((bytes) => bytes.length % 3 !== 0),
        fc.integer({ min: 1, max: 15 }),
        (bytes, flip) => {
          const canonical = Buffer.from(bytes).toString('base64url');
          const spareBits = canonical.length % 4 === 2 ? 0b1111 : 0b11;
          fc.pre((flip & spareBits) !== 0);
          const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
          const last = alphabet[alphabet.indexOf(canonical[canonical.length - 1]) ^ (flip & spareBits)];
          const variant = canonical.slice(0, -1) + last;
          return Buffer.from(variant, 'base64url').equals(Buffer.from(bytes)) && !isCanonicalBase64url(variant);
        },
      ),
    );
  });
});

describe('isCanonicalCompactJws', () => {
  it.each([
    ['two segments', 'eyJhbGciOiJSUzI1NiJ9.e30'],
    ['four segments', 'eyJhbGciOiJSUzI1NiJ9.e30.QQ.QQ'],
    ['a non-canonical header', 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsifR.e30.QQ'],
    ['a non-canonical payload', 'eyJhbGciOiJSUzI1NiJ9.e31.QQ'],
    ['a non-canonical signature', 'eyJhbGciOiJSUzI1NiJ9.e30.QR'],
    ['a padded signature', 'eyJhbGciOiJSUzI1NiJ9.e30.QQ=='],
  ])('refuses %s', (_, token) => {
    expect(isCanonicalCompactJws(token)).toBe(false);
  });

  it('accepts three canonical segments', () => {
    expect(isCanonicalCompactJws('eyJhbGciOiJSUzI1NiIsImtpZCI6ImsifQ.e30.QQ')).toBe(true);
  });
});
