import type { DestinationStream } from 'pino';
import { createRootLogger } from './root-logger';

function destination(): DestinationStream & { readonly lines: string[] } {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

describe('createRootLogger', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
  const request = {
    method: 'POST',
    url: `/connect/userinfo/${jwt}?access_token=query-token`,
    ip: '192.0.2.1',
    headers: { authorization: 'Basic bTJtOm0ybS1zZWNyZXQ=', cookie: 'tollgate.session=session-handle' },
    body: 'client_secret=posted-secret',
  };

  it('writes no query string, token-like path segment, header or body of a request, in a child logger too', () => {
    const out = destination();
    const root = createRootLogger('info', out);
    root.info({ req: request }, 'incoming request');
    root.child({ kind: 'audit' }).info({ req: request }, 'request seen by a child');
    expect(out.lines).toHaveLength(2);
    for (const line of out.lines) {
      expect(JSON.parse(line).req).toEqual({ method: 'POST', path: '/connect/userinfo/[redacted]', remoteAddress: '192.0.2.1' });
      for (const secret of [jwt, 'query-token', 'bTJtOm0ybS1zZWNyZXQ=', 'session-handle', 'posted-secret']) expect(line).not.toContain(secret);
    }
  });

  it('writes at LOG_LEVEL and above only', () => {
    const out = destination();
    const root = createRootLogger('warn', out);
    root.info('hidden');
    root.warn('shown');
    expect(out.lines.map((line) => JSON.parse(line).msg)).toEqual(['shown']);
  });
});
