import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy to the database that a test can cut (connections dropped, new ones refused) or freeze
 * (a network black hole: connections stay open, nothing is forwarded), then restore.
 */
export class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  /** Connections that lost data while frozen: their protocol stream is broken, so restore() drops them. */
  private readonly blackholed = new Set<Socket>();
  private server?: Server;
  private cut = false;
  private frozen = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      if (this.cut) return client.destroy();
      this.track(client);
      if (this.frozen) return void this.blackholed.add(client);
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
      this.track(upstream);
      this.forward(client, upstream);
      this.forward(upstream, client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  /** Drops every open connection and refuses new ones until `restore()`. */
  sever(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  /** Stops forwarding anything, without closing a connection: the database seems to hang. */
  freeze(): void {
    this.frozen = true;
  }

  restore(): void {
    this.cut = false;
    this.frozen = false;
    for (const socket of this.blackholed) socket.destroy();
    this.blackholed.clear();
  }

  async stop(): Promise<void> {
    this.sever();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.blackholed.delete(socket);
    });
    socket.on('error', () => undefined);
  }

  private forward(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (this.frozen) this.blackholed.add(from).add(to);
      else to.write(chunk);
    });
  }
}
