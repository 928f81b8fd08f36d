import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { RedactingSpanExporter } from './redacting-span.exporter';

const SECRET = 'tok-8c2e';

function span(kind: number, attributes: ReadableSpan['attributes']): ReadableSpan {
  return {
    name: 'span',
    kind,
    attributes,
    events: [
      {
        name: 'exception',
        time: [0, 0],
        attributes: { 'exception.type': 'QueryFailedError', 'exception.message': `bad uuid "${SECRET}"`, 'exception.stacktrace': SECRET },
      },
      { name: 'retry', time: [0, 0], attributes: { attempt: 2 } },
    ],
    status: { code: 2, message: `invalid input syntax: "${SECRET}"` },
    spanContext: () => ({ traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 }),
  } as unknown as ReadableSpan;
}

function exported(...spans: ReadableSpan[]): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  new RedactingSpanExporter(memory).export(spans, () => undefined);
  return memory.getFinishedSpans();
}

describe('RedactingSpanExporter', () => {
  it('keeps no query string, user info, header, query parameter or incoming path, whoever recorded them', () => {
    const [client, server] = exported(
      span(3, {
        'url.full': `https://user:${SECRET}@rp.example/logout?token=${SECRET}#${SECRET}`,
        'url.query': `token=${SECRET}`,
        'url.path': '/logout',
        'http.request.header.authorization': [`Bearer ${SECRET}`],
        'db.postgresql.values': [SECRET],
        'db.query.parameter.0': SECRET,
        'http.response.status_code': 200,
      }),
      span(1, { 'url.path': `/connect/register/${SECRET}`, 'http.route': '/connect/register/:clientId', 'http.target': `/x?code=${SECRET}` }),
    );
    expect(client.attributes).toEqual({ 'url.full': 'https://rp.example/logout', 'url.path': '/logout', 'http.response.status_code': 200 });
    expect(server.attributes).toEqual({ 'http.route': '/connect/register/:clientId' });
  });

  it("keeps an exception's type and a status's code, never a message or stack; other events as they are", () => {
    const [redacted] = exported(span(1, {}));
    expect(redacted.events.map((event) => event.attributes)).toEqual([{ 'exception.type': 'QueryFailedError' }, { attempt: 2 }]);
    expect(redacted.status).toEqual({ code: 2 });
    expect(redacted.spanContext().spanId).toBe('2'.repeat(16));
  });
});
