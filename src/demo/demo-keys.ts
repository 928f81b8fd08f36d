/**
 * Public halves of the demo key pairs (docs/demo-data.md). Their private halves are public too,
 * in test/fixtures/demo-keys.json, so tests and walk-throughs can sign demo assertions and tokens.
 */
export const DEMO_PUBLIC_KEYS = {
  'demo-idp': {
    kty: 'EC',
    x: 'qFAsZAT7w4eAbVLKO87Oz7M7cN14BPIvkjFRLqCmCyg',
    y: 'JFkgsj-DTgEQdhxYRMv6UzdZxTtlEVo6LejHOFAPoDk',
    crv: 'P-256',
    kid: 'demo-idp-1',
    alg: 'ES256',
    use: 'sig',
  },
  'demo-workloads': {
    kty: 'EC',
    x: 'U1CsGzfyMVbFMEWfgl2gWjqxYcWTP-hBQw7Kl9F7dv8',
    y: 'ZfWfe2EvfffMP2MfN_QeFbamuD8zsQJTULYkT2s8tKw',
    crv: 'P-256',
    kid: 'demo-workloads-1',
    alg: 'ES256',
    use: 'sig',
  },
  batch: {
    kty: 'EC',
    x: 'uVK37B72rZlEHkn1ZJOMHQ9z19aIKTw1BluJrxeQTY4',
    y: 'u1UuQY2EXiu1HfB5LydfCXKjASCm-UiRVSPJeY7CPVs',
    crv: 'P-256',
    kid: 'batch-1',
    alg: 'ES256',
    use: 'sig',
  },
} as const;
