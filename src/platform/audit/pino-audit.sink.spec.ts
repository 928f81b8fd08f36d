import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoAuditSink } from './pino-audit.sink';

function sinkAt(level: string): { sink: PinoAuditSink; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { sink: new PinoAuditSink(pino({ level }, destination)), lines };
}

const ISSUED = { name: 'token.issued', grantType: 'client_credentials', clientId: 'm2m', scopes: ['api1'], jwtId: 'j1' } as const;

describe('PinoAuditSink', () => {
  it('writes an event as one JSON line of kind audit at info', () => {
    const { sink, lines } = sinkAt('info');
    sink.emit(ISSUED);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, kind: 'audit', audit: 'token.issued', clientId: 'm2m', scopes: ['api1'], jwtId: 'j1' });
  });

  it('writes nothing when the level hides info', () => {
    const { sink, lines } = sinkAt('warn');
    sink.emit(ISSUED);
    expect(lines).toEqual([]);
  });
});
