import type { Client } from '../../identity/clients/client';
import type { ResourceStore } from '../../identity/resources/resource.store';
import type { PendingBound } from '../../platform/rate-limit/pending-requests';
import { OAuthError } from '../../protocol/oauth-error';
import type { PushedParameters } from './pushed-authorization-request';
import { PushedAuthorizationRequestRepository, type StoredPushedRequest } from './pushed-authorization-request.repository';
import { PushedAuthorizationService } from './pushed-authorization.service';

interface Row extends StoredPushedRequest {
  claimed: boolean;
}

/** Keeps rows in memory, with the repository's conditions. */
class FakeRepository extends PushedAuthorizationRequestRepository {
  readonly rows = new Map<string, Row>();
  full?: PendingBound;
  async add(request: StoredPushedRequest): Promise<PendingBound | undefined> {
    if (this.full) return this.full;
    this.rows.set(request.requestUriHash, { ...request, claimed: false });
    return undefined;
  }
  async claim(hash: string, clientId: string, now: Date, until: Date): Promise<PushedParameters | undefined> {
    const row = this.live(hash, clientId, now);
    if (!row || row.claimed) return undefined;
    this.rows.set(hash, { ...row, claimed: true, expiresAt: until });
    return row.parameters;
  }
  async findClaimed(hash: string, clientId: string, now: Date): Promise<PushedParameters | undefined> {
    const row = this.live(hash, clientId, now);
    return row?.claimed ? row.parameters : undefined;
  }
  async replaceParameters(hash: string, parameters: PushedParameters): Promise<void> {
    const row = this.rows.get(hash);
    if (row) this.rows.set(hash, { ...row, parameters });
  }
  async consume(hash: string, clientId: string, now: Date): Promise<boolean> {
    return this.live(hash, clientId, now)?.claimed === true && this.rows.delete(hash);
  }
  async deleteExpiredBefore(): Promise<number> {
    return 0;
  }
  private live(hash: string, clientId: string, now: Date): Row | undefined {
    const row = this.rows.get(hash);
    return row && row.clientId === clientId && row.expiresAt > now ? row : undefined;
  }
}

const webapp = {
  clientId: 'webapp',
  enabled: true,
  allowedGrantTypes: ['authorization_code'],
  allowedScopes: ['openid'],
  redirectUris: ['https://web.example/cb'],
} as unknown as Client;
const authenticated = { client: webapp, method: 'client_secret_basic' } as const;
const ADDRESS = '2001:db8:1:2::7';
const request = { response_type: 'code', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', scope: 'openid' };
const resources = { catalog: { isKnownScope: () => true, isIdentityScope: () => false, apiResourceByUri: () => undefined } } as unknown as ResourceStore;
const t0 = new Date('2026-01-01T00:00:00Z');
const jkt = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';
/** Every proof is valid and of the key `jkt`; `invalid` is refused as the validator would. */
const proofs = {
  forPushedRequest: async (header: string | string[] | undefined) => {
    if (header === 'invalid') throw new OAuthError('invalid_dpop_proof', 'bad proof');
    return header === undefined ? undefined : { jkt };
  },
};
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof OAuthError ? error.code : 'not an OAuthError'),
  );
}

describe('PushedAuthorizationService', () => {
  let repository: FakeRepository;
  let service: PushedAuthorizationService;
  beforeEach(() => {
    repository = new FakeRepository();
    service = new PushedAuthorizationService(repository, resources, proofs);
  });

  describe('push', () => {
    it('refuses with a 429 when the client, or the client from this address, holds too many pending requests', async () => {
      for (const [bound, description] of [
        ['client', 'too many pushed requests are pending for this client'],
        ['address', 'too many pushed requests are pending for this client from this address'],
      ] as const) {
        repository.full = bound;
        const error = await service.push(request, authenticated, ADDRESS, undefined, t0).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OAuthError);
        expect(error).toMatchObject({ code: 'invalid_request', status: 429, description, options: { retryAfterSeconds: 60 } });
      }
    });

    it("counts an anonymous push under its address (an IPv6 /64), an authenticated client's under none", async () => {
      await service.push(request, { client: webapp, method: 'none' }, ADDRESS, undefined, t0);
      await service.push(request, authenticated, ADDRESS, undefined, t0);
      expect([...repository.rows.values()].map((row) => row.requestedFrom)).toEqual(['2001:db8:1:2::/64', undefined]);
    });

    it('answers a request_uri of 256 random bits that lives 60 seconds, storing only its hash', async () => {
      const response = await service.push(request, authenticated, ADDRESS, undefined, t0);
      expect(response).toEqual({ request_uri: expect.stringMatching(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/), expires_in: 60 });
      const [[hash, row]] = [...repository.rows];
      expect(response.request_uri).not.toContain(hash);
      expect(row.expiresAt).toEqual(later(60));
    });
  });

  describe('push with DPoP (RFC 9449 §10.1)', () => {
    const pushedJkt = async (body: Record<string, string>, proof?: string) => {
      const { request_uri: uri } = await service.push(body, authenticated, ADDRESS, proof, t0);
      return (await service.redeem(uri, 'webapp', false, t0)).valid('dpop_jkt');
    };

    it('binds the request to the proof key, and keeps a dpop_jkt sent without a proof', async () => {
      expect(await pushedJkt(request, 'proof')).toBe(jkt);
      expect(await pushedJkt({ ...request, dpop_jkt: jkt }, 'proof')).toBe(jkt);
      expect(await pushedJkt({ ...request, dpop_jkt: 'A'.repeat(43) })).toBe('A'.repeat(43));
      expect(await pushedJkt(request)).toBeUndefined();
    });

    it('refuses an invalid proof, or a dpop_jkt of another key than the proof, and stores nothing', async () => {
      expect(await codeOf(service.push(request, authenticated, ADDRESS, 'invalid', t0))).toBe('invalid_dpop_proof');
      expect(await codeOf(service.push({ ...request, dpop_jkt: 'A'.repeat(43) }, authenticated, ADDRESS, 'proof', t0))).toBe('invalid_dpop_proof');
      expect(await codeOf(service.push({ ...request, dpop_jkt: 'short' }, authenticated, ADDRESS, 'proof', t0))).toBe('invalid_request');
      expect(repository.rows.size).toBe(0);
    });
  });

  describe('redeem', () => {
    it('refuses a malformed, unknown, expired or other client’s request_uri', async () => {
      const { request_uri: uri } = await service.push(request, authenticated, ADDRESS, undefined, t0);
      expect(await codeOf(service.redeem('urn:ietf:params:oauth:request_uri:short', 'webapp', false, t0))).toBe('invalid_request_uri');
      expect(await codeOf(service.redeem(`urn:ietf:params:oauth:request_uri:${'A'.repeat(43)}`, 'webapp', false, t0))).toBe('invalid_request_uri');
      expect(await codeOf(service.redeem(uri, 'spa', false, t0))).toBe('invalid_request_uri');
      expect(await codeOf(service.redeem(uri, 'webapp', false, later(61)))).toBe('invalid_request_uri');
    });

    it('is used once at the endpoint, then only from the pages, until consumed', async () => {
      const { request_uri: uri } = await service.push(request, authenticated, ADDRESS, undefined, t0);
      expect(await codeOf(service.redeem(uri, 'webapp', true, t0))).toBe('invalid_request_uri');
      expect((await service.redeem(uri, 'webapp', false, later(30))).valid('scope')).toBe('openid');
      expect(await codeOf(service.redeem(uri, 'webapp', false, later(31)))).toBe('invalid_request_uri');
      // The sign-in may take longer than the first 60 seconds.
      expect((await service.redeem(uri, 'webapp', true, later(600))).valid('client_id')).toBe('webapp');
      expect(await service.consume(uri, 'webapp', later(601))).toBe(true);
      expect(await service.consume(uri, 'webapp', later(601))).toBe(false);
      expect(await codeOf(service.redeem(uri, 'webapp', true, later(602)))).toBe('invalid_request_uri');
    });

    it('reads what the pages kept', async () => {
      const { request_uri: uri } = await service.push({ ...request, prompt: 'login' }, authenticated, ADDRESS, undefined, t0);
      await service.redeem(uri, 'webapp', false, t0);
      await service.keep(uri, { ...request, client_id: 'webapp' });
      expect((await service.redeem(uri, 'webapp', true, t0)).valid('prompt')).toBeUndefined();
    });
  });
});
