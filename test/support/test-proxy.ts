// A tiny forward proxy on loopback that counts what passes through it: absolute-URI requests
// (`POST http://host:port/path`, how clients send http:// through a proxy) and CONNECT tunnels
// (how they send https://). `hosts` maps names to real addresses, so a test can use a host name
// that only the proxy can resolve — a request that arrives proves it went through the proxy.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export class TestProxy {
  /** Absolute-URI requests forwarded: `METHOD http://host:port/path`. */
  readonly forwarded: string[] = [];
  /** CONNECT targets tunnelled: `host:port`. */
  readonly tunnels: string[] = [];
  url = '';
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  /** @param hosts host name → `127.0.0.1:port`; names not listed are used as they are. */
  constructor(private readonly hosts: Record<string, string> = {}) {}

  private resolve(host: string, port: string): { host: string; port: number } {
    const mapped = this.hosts[`${host}:${port}`] ?? this.hosts[host];
    const [h, p] = (mapped ?? `${host}:${port}`).split(':');
    return { host: h, port: Number(p) };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      const target = req.url ?? '';
      this.tunnels.push(target);
      const i = target.lastIndexOf(':');
      const to = this.resolve(target.slice(0, i), target.slice(i + 1));
      const upstream = connect(to.port, to.host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      for (const s of [upstream, client]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
      }
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private forward(req: IncomingMessage, res: import('node:http').ServerResponse): void {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URI expected');
      return;
    }
    this.forwarded.push(`${req.method} ${target.href}`);
    const to = this.resolve(target.hostname, target.port || '80');
    const up = httpRequest(
      { host: to.host, port: to.port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', (err) => res.writeHead(502).end(`proxy: ${err.message}`));
    req.pipe(up);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
}
