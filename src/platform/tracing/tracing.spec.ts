import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { OutboundAddressPolicy } from '../../identity/clients/self-registered/outbound-address.policy';
import { OutboundFetcher } from '../../identity/clients/self-registered/outbound-fetcher';
import { JwkSetFetcher } from '../../identity/trusted-issuers/jwk-set.fetcher';
import { OAuthError } from '../../protocol/oauth-error';
import { inSpan, isTracing } from './spans';
import { registerTracerProvider, type TracerSetup } from './tracer-provider';

const SECRET = 'query-secret-6f1d';
const JWKS = JSON.stringify({
  keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0', kid: 'k1' }],
});

/** Every string in a span as exported: its name, attribute values, event attributes and status message. */
function strings(span: ReadableSpan): string[] {
  const values = [span.attributes, ...span.events.map((event) => event.attributes ?? {})].flatMap((attributes) => Object.values(attributes).flat());
  return [span.name, span.status.message ?? '', ...values.map(String)];
}

describe('tracing with an in-memory exporter', () => {
  let exporter: InMemorySpanExporter;
  let setup: TracerSetup;
  let server: Server;
  let base: string;
  const received: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(request.headers);
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JWKS);
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((closed) => server.close(closed)));

  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    setup = registerTracerProvider(exporter, { simple: true });
    received.length = 0;
  });
  afterEach(() => setup.shutdown());

  it('nests spans, synchronous and asynchronous, in one trace', async () => {
    await inSpan('outer', () => inSpan('inner', async () => inSpan('innermost', () => 1)));
    const [innermost, inner, outer] = exporter.getFinishedSpans();
    expect([innermost.name, inner.name, outer.name]).toEqual(['innermost', 'inner', 'outer']);
    expect(innermost.parentSpanContext?.spanId).toBe(inner.spanContext().spanId);
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(new Set([innermost, inner, outer].map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("records a failure's kind, never its message; a client's OAuth error is not a fault", async () => {
    await expect(inSpan('grant', async () => Promise.reject(OAuthError.invalidGrant(`the code ${SECRET} is unknown`)))).rejects.toThrow(OAuthError);
    expect(() =>
      inSpan('fault', () => {
        throw new TypeError(`cannot read ${SECRET}`);
      }),
    ).toThrow(TypeError);
    const [grant, fault] = exporter.getFinishedSpans();
    expect([grant.attributes['error.type'], grant.status.code]).toEqual(['invalid_grant', 0]);
    expect([fault.attributes['error.type'], fault.status.code]).toEqual(['TypeError', 2]);
    expect([grant, fault].flatMap(strings).filter((value) => value.includes(SECRET))).toEqual([]);
  });

  it('sends traceparent on the guarded fetcher and on JWK Set fetches, in the trace of the span that fetched, without the query string', async () => {
    const fetcher = new OutboundFetcher(new OutboundAddressPolicy(true), { timeoutMs: 2000, maxBytes: 10_000 });
    try {
      await inSpan('document', () => fetcher.get(`${base}/client.json?token=${SECRET}`, 'application/json'));
      await inSpan('signal', () => fetcher.post(`${base}/logout`, `logout_token=${SECRET}`, { 'content-type': 'application/x-www-form-urlencoded' }));
      await inSpan('jwks', () => new JwkSetFetcher().fetch(`${base}/jwks?access_token=${SECRET}`, false));
    } finally {
      await fetcher.close();
    }
    const spans = exporter.getFinishedSpans();
    expect(received).toHaveLength(3);
    for (const [index, name] of ['document', 'signal', 'jwks'].entries()) {
      const parent = spans.find((span) => span.name === name)!;
      const fetch = spans.find((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId)!;
      expect(fetch.attributes['http.response.status_code']).toBe(200);
      const traceparent = String(received[index].traceparent);
      expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(traceparent.split('-')[1]).toBe(parent.spanContext().traceId);
      expect(traceparent.split('-')[2]).toBe(fetch.spanContext().spanId);
      expect(received[index].baggage).toBeUndefined();
    }
    expect(spans.find((span) => span.name === 'GET')?.attributes['url.full']).toBe(`${base}/client.json`);
    expect(spans.flatMap(strings).filter((value) => value.includes(SECRET))).toEqual([]);
  });

  it('is off again after shutdown: the work runs, no span is made', async () => {
    await setup.shutdown();
    expect(isTracing()).toBe(false);
    expect(await inSpan('off', async () => 42)).toBe(42);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
