import * as http from 'node:http';
import type * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { type AllowHosts, checkUrl } from './address-policy';
import { GuardedHttpAgent, type Resolver } from './guarded-agent';

/** Headers that belong to one hop (RFC 9110 §7.6.1), never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * A forward proxy on loopback that the headless browser must use for everything (page loads,
 * scripts' requests, WebSockets, workers): it dials through the fetcher's guarded agent, so each
 * connection's address is checked when it is made, after DNS — the answer a page's host name
 * had when the request was let through cannot be swapped for a private one (DNS rebinding).
 * Plain HTTP is forwarded request by request; HTTPS and WebSockets are tunnelled (CONNECT).
 * Anything refused is answered 403 and never dialled.
 */
export class GuardedProxy {
  private server: http.Server | null = null;
  private readonly agent: GuardedHttpAgent;
  private readonly open = new Set<Duplex>();

  constructor(
    private readonly allow: AllowHosts,
    resolver?: Resolver,
    connectTimeoutMs = 5_000,
  ) {
    this.agent = new GuardedHttpAgent({ allowHosts: allow, resolver, connectTimeoutMs });
  }

  /** Listens on a free loopback port; resolves to the proxy's address (`http://127.0.0.1:<port>`). */
  async start(): Promise<string> {
    const server = http.createServer((req, res) => this.forward(req, res));
    server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.tunnel(req, socket, head));
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    this.agent.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  private track(socket: Duplex): void {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
  }

  /** `GET http://host/path`: checked, then sent on through the guarded agent. */
  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    const verdict = checkUrl(req.url ?? '', this.allow);
    if (!verdict.ok || verdict.url.protocol !== 'http:') return void res.writeHead(403).end();
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    const upstream = http.request(verdict.url, { method: req.method, headers, agent: this.agent }, (answer) => {
      const raw: string[] = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2)
        if (!HOP_BY_HOP.has(answer.rawHeaders[i]!.toLowerCase()))
          raw.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
      res.writeHead(answer.statusCode ?? 502, raw);
      answer.pipe(res);
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(403).end()));
    req.pipe(upstream);
  }

  /** `CONNECT host:port` (HTTPS, WebSockets): checked, dialled through the guarded agent, then bytes both ways. */
  private tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): void {
    this.track(client);
    const refuse = (): void => void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    client.on('error', () => client.destroy());
    const target = /^\[?([^\]]*?)\]?:(\d{1,5})$/.exec(req.url ?? '');
    if (!target) return refuse();
    const [, host, port] = target as unknown as [string, string, string];
    const verdict = checkUrl(`https://${host.includes(':') ? `[${host}]` : host}:${port}/`, this.allow);
    if (!verdict.ok) return refuse();
    let upstream: net.Socket;
    try {
      upstream = this.agent.createConnection({ host, port: Number(port) }) as net.Socket;
    } catch {
      return refuse();
    }
    this.track(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => (connected ? client.destroy() : refuse()));
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }
}
