/* eslint-disable @typescript-eslint/no-explicit-any -- the specs walk parsed YAML of arbitrary shape */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * docker-compose.yml, a realistic single host (docs/operations.md#docker-compose): a proxy in front
 * of two replicas that trust only it, Redis for shared throttling, one public issuer, demo data
 * off unless asked, and no default password. Checked as parsed YAML, anchors resolved.
 */
describe('docker-compose.yml', () => {
  const source = readFileSync(join(__dirname, '../../docker-compose.yml'), 'utf8');
  const compose = parse(source, { merge: true });
  const services: Record<string, any> = compose.services;
  const replicas = Object.keys(services).filter((name) => /^tollgate-\d$/.test(name));

  it('puts a pinned reverse-proxy image in front of two replicas, and publishes only the proxy', () => {
    expect(services.proxy.image).toMatch(/^(caddy|nginx|haproxy):\d+\.\d+\.\d+/);
    expect(replicas).toEqual(['tollgate-1', 'tollgate-2']);
    expect(services.proxy.depends_on).toEqual(replicas);
    expect(services.proxy.ports).toEqual(['80:80', '443:443']);
    for (const name of [...replicas, 'postgres', 'redis']) expect([name, services[name].ports]).toEqual([name, undefined]);
    const caddyfile = readFileSync(join(__dirname, '../../deploy/compose/Caddyfile'), 'utf8');
    for (const replica of replicas) expect(caddyfile).toContain(`${replica}:5000`);
    expect(caddyfile).toContain('health_uri /health/ready');
  });

  it("has every replica trust the proxy's address only, share Redis, and advertise one https issuer", () => {
    const proxyAddress = services.proxy.networks.backend.ipv4_address;
    for (const name of replicas) {
      const env = services[name].environment;
      expect(env.TRUST_PROXY).toBe(proxyAddress);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(env.ISSUER).toBe('https://${TOLLGATE_DOMAIN:?set TOLLGATE_DOMAIN, the public host name}');
    }
    expect(services.redis.image).toMatch(/^redis:\d+\.\d+\.\d+/);
  });

  it('keeps demo data off unless asked, and has no default database password or key', () => {
    for (const name of replicas) {
      const env = services[name].environment;
      expect(env.SEED_DEMO).toBe('${SEED_DEMO:-false}');
      expect(env.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
      expect(env.KEY_ENCRYPTION_KEY).toMatch(/^\$\{KEY_ENCRYPTION_KEY:\?/);
      // The image sets NODE_ENV=production: nothing here may turn it off.
      expect(env.NODE_ENV).toBeUndefined();
    }
    expect(services.postgres.environment.POSTGRES_PASSWORD).toBe('${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}');
    expect(source).not.toMatch(/:-[^}]*password/i);
  });

  it('drains on stop before the proxy notices, within the stop grace period', () => {
    for (const name of replicas) {
      const drain = Number(services[name].environment.SHUTDOWN_DRAIN_SECONDS);
      expect(drain).toBeGreaterThan(0);
      expect(Number.parseInt(services[name].stop_grace_period, 10)).toBeGreaterThanOrEqual(drain + 10);
    }
  });
});
