import { isSoleIssuerAudience, isWorkloadAssertion, readClientAssertion, workloadAudiences } from './client-assertion';
import { JWT_BEARER_ASSERTION, JWT_SPIFFE_ASSERTION } from './client-auth-method';

const jwt = (claims: object) => `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

describe('readClientAssertion', () => {
  it('refuses one parameter without the other, or either empty', () => {
    for (const body of [
      { client_assertion: 'x' },
      { client_assertion_type: JWT_BEARER_ASSERTION },
      { client_assertion: '', client_assertion_type: JWT_BEARER_ASSERTION },
    ]) {
      expect(() => readClientAssertion(body)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    }
  });

  it('refuses an over-long client_assertion_type or client_assertion', () => {
    expect(() => readClientAssertion({ client_assertion: 'x', client_assertion_type: 'u'.repeat(257) })).toThrow(
      expect.objectContaining({ code: 'invalid_request', description: 'client_assertion_type is too long' }),
    );
    expect(() => readClientAssertion({ client_assertion: 'x'.repeat(16 * 1024 + 1), client_assertion_type: JWT_BEARER_ASSERTION })).toThrow(
      expect.objectContaining({ code: 'invalid_request', description: 'parameter client_assertion is too long' }),
    );
  });

  it('refuses a repeated client_assertion', () => {
    expect(() => readClientAssertion({ client_assertion: ['a', 'b'], client_assertion_type: JWT_BEARER_ASSERTION })).toThrow('must not be repeated');
  });

  it('returns undefined without either, and unverified claims only when the JWT decodes', () => {
    expect(readClientAssertion({ client_id: 'x' })).toBeUndefined();
    expect(readClientAssertion({ client_assertion: 'garbage', client_assertion_type: 't' })).toEqual({ type: 't', jwt: 'garbage', unverified: undefined });
    expect(readClientAssertion({ client_assertion: jwt({ sub: 'a' }), client_assertion_type: 't' })?.unverified).toEqual({ sub: 'a' });
  });

  it('reads a body once: asked again, the same assertion, and a refused body refused again', () => {
    const body = { client_assertion: jwt({ sub: 'a' }), client_assertion_type: 't' };
    expect(readClientAssertion(body)).toBe(readClientAssertion(body));
    const refused = { client_assertion: 'x' };
    expect(() => readClientAssertion(refused)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => readClientAssertion(refused)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});

describe('isWorkloadAssertion', () => {
  const of = (type: string, claims: object) => readClientAssertion({ client_assertion_type: type, client_assertion: jwt(claims) })!;

  it('takes jwt-bearer with iss = sub, or any other subject, as private_key_jwt', () => {
    expect(isWorkloadAssertion(of(JWT_BEARER_ASSERTION, { iss: 'batch', sub: 'batch' }))).toBe(false);
    expect(isWorkloadAssertion(of(JWT_BEARER_ASSERTION, { iss: 'https://k8s', sub: 'batch' }))).toBe(false);
    expect(isWorkloadAssertion(of(JWT_BEARER_ASSERTION, { iss: 'system:serviceaccount:a:b', sub: 'system:serviceaccount:a:b' }))).toBe(false);
  });

  it('takes a Kubernetes service-account subject from another issuer, and every SPIFFE assertion, as workload identity', () => {
    expect(isWorkloadAssertion(of(JWT_BEARER_ASSERTION, { iss: 'https://k8s', sub: 'system:serviceaccount:a:b' }))).toBe(true);
    expect(isWorkloadAssertion(of(JWT_SPIFFE_ASSERTION, {}))).toBe(true);
  });
});

describe('isSoleIssuerAudience', () => {
  const issuer = 'https://id.example';

  it('refuses the token endpoint URL alone, as a string or an array', () => {
    expect(isSoleIssuerAudience(`${issuer}/connect/token`, issuer)).toBe(false);
    expect(isSoleIssuerAudience([`${issuer}/connect/token`], issuer)).toBe(false);
  });

  it('refuses the issuer among other values, the token endpoint URL included', () => {
    expect(isSoleIssuerAudience([issuer, 'https://other.example'], issuer)).toBe(false);
    expect(isSoleIssuerAudience(['https://other.example', issuer], issuer)).toBe(false);
    expect(isSoleIssuerAudience([issuer, `${issuer}/connect/token`], issuer)).toBe(false);
    expect(isSoleIssuerAudience([issuer, issuer], issuer)).toBe(false);
  });

  it('refuses no aud, an empty array, another type, or a near miss', () => {
    for (const aud of [undefined, [], 42, { aud: issuer }, `${issuer}/`, 'https://ID.example']) expect(isSoleIssuerAudience(aud, issuer)).toBe(false);
  });

  it('accepts the issuer as a string or as a one-element array', () => {
    expect(isSoleIssuerAudience(issuer, issuer)).toBe(true);
    expect(isSoleIssuerAudience([issuer], issuer)).toBe(true);
  });
});

describe('workloadAudiences', () => {
  it('is the issuer, the token endpoint and the endpoint called, without duplicates', () => {
    expect(workloadAudiences('https://id.example', 'https://id.example/connect/token')).toEqual(['https://id.example', 'https://id.example/connect/token']);
    expect(workloadAudiences('https://id.example', 'https://id.example/connect/introspect')).toHaveLength(3);
  });
});
