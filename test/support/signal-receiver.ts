import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One request the receiver got, and what it answered. */
export interface ReceivedSignal {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  readonly body: string;
  /** The status answered; undefined while the answer is held. */
  status?: number;
  /** The logout token of a back-channel logout, or the SET pushed (the whole body). */
  readonly token: string;
}

/**
 * A relying party's back-channel logout endpoint and a Shared Signals receiver in one, on a
 * loopback port of its own: it records every POST and answers with what `answer` says (a status, or
 * a promise of one, to hold the answer). By default 200 for logout tokens and 202 for SETs.
 */
export class SignalReceiver {
  readonly received: ReceivedSignal[] = [];
  answer: (signal: ReceivedSignal) => number | Promise<number> = (signal) => (signal.path.endsWith('/backchannel-logout') ? 200 : 202);

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<SignalReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new SignalReceiver(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void receiver.handle(request).then((status) => response.writeHead(status, { 'content-type': 'application/json' }).end('{}'));
    });
    return receiver;
  }

  /** The first request `matches` accepts, waiting for it (polling every 20 ms) at most `timeoutMs`. */
  async waitFor(matches: (signal: ReceivedSignal) => boolean, timeoutMs = 30_000, what = 'a matching request'): Promise<ReceivedSignal> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(matches);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `the receiver got no ${what} within ${timeoutMs} ms; it got ${JSON.stringify(this.received.map((signal) => [signal.path, signal.status]))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '/';
    const token = path.endsWith('/backchannel-logout') ? (new URLSearchParams(body).get('logout_token') ?? '') : body;
    const signal: ReceivedSignal = { path, contentType: request.headers['content-type'], authorization: request.headers.authorization, body, token };
    this.received.push(signal);
    signal.status = await this.answer(signal);
    return signal.status;
  }
}

/** The JSON payload of a compact JWS, unverified (specs verify with jose separately). */
export function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
