import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that answers recorded JSON by method + path + query subset, for adapter
 * tests and benchmarks (no network). It logs every request (query and headers, to assert what an
 * adapter sent), counts concurrency (to assert throttling), and can delay or fail on demand.
 * Routes are tried newest first, so a test can shadow a default route for a few requests.
 */
export interface ReplayRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-case header names, as Node gives them. */
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON when the body is JSON, else the raw text ('' for none). */
  body: unknown;
  /** ms since the server started (performance clock), when the request arrived. */
  at: number;
}

export interface ReplayResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Serialised as JSON unless it is already a string. */
  body?: unknown;
}

export interface ReplayRoute extends ReplayResponse {
  /** Default GET; '*' matches any. */
  method?: string;
  /** Exact path, or '*' for any. */
  path: string;
  /** Each listed parameter must be present with this value (others are ignored). */
  query?: Record<string, string>;
  /** A recorded JSON file served as the body (read once, at registration). */
  file?: string;
  /** Computed answer (takes precedence over body/file/status). */
  respond?: (req: ReplayRequest) => ReplayResponse | Promise<ReplayResponse>;
  /** Wait this long before answering; overrides the server default. */
  delayMs?: number;
  /** Answer this many requests, then stop matching (e.g. one 429, then the default route). */
  times?: number;
}

export interface ReplayServerOptions {
  routes?: ReplayRoute[];
  /** Delay applied to every route without its own `delayMs` (e.g. a 100 ms SearXNG stub). */
  delayMs?: number;
  /** Default 127.0.0.1; port 0 picks a free one. */
  host?: string;
  port?: number;
}

interface LiveRoute extends ReplayRoute {
  used: number;
  /** Added by failNext: removed by reset() so leftovers cannot leak into the next test. */
  transient?: boolean;
}

export class ReplayServer {
  readonly requests: ReplayRequest[] = [];
  /** Highest number of requests being answered at once since the last `reset()`. */
  maxInFlight = 0;
  inFlight = 0;
  delayMs: number;
  private readonly routes: LiveRoute[] = [];
  private readonly started = performance.now();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    options: ReplayServerOptions,
  ) {
    this.delayMs = options.delayMs ?? 0;
    for (const route of options.routes ?? []) this.route(route);
  }

  static async start(options: ReplayServerOptions = {}): Promise<ReplayServer> {
    const server = http.createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const replay = new ReplayServer(server, `http://${host}:${port}`, options);
    server.on('request', (req, res) => void replay.handle(req, res));
    return replay;
  }

  /** Adds a route; it shadows earlier ones that match the same requests. */
  route(route: ReplayRoute): this {
    return this.add(route, false);
  }

  /** The next `count` requests (any route) answer `status`, e.g. 429 with a Retry-After. */
  failNext(count: number, status: number, response: Omit<ReplayResponse, 'status'> = {}): this {
    return this.add(
      { method: '*', path: '*', status, times: count, body: { error: `replayed ${status}` }, ...response },
      true,
    );
  }

  /** Forget logged requests, concurrency and unused failNext answers; routes stay. */
  reset(): void {
    this.requests.length = 0;
    this.maxInFlight = 0;
    for (let i = this.routes.length - 1; i >= 0; i--) if (this.routes[i]!.transient) this.routes.splice(i, 1);
  }

  private add(route: ReplayRoute, transient: boolean): this {
    const body = route.file !== undefined ? JSON.parse(fs.readFileSync(route.file, 'utf8')) : route.body;
    this.routes.push({ ...route, body, used: 0, transient });
    return this;
  }

  /** Requests logged for a path (all when omitted). */
  requestsTo(path?: string): ReplayRequest[] {
    return path === undefined ? [...this.requests] : this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        this.inFlight--;
      }
    };
    // A client that gives up (timeout, abort) ends its request here, not when our delay expires.
    res.on('close', finish);
    try {
      const url = new URL(req.url ?? '/', this.url);
      const raw = await readBody(req);
      const logged: ReplayRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: parseBody(raw, req.headers['content-type']),
        at: performance.now() - this.started,
      };
      this.requests.push(logged);
      const route = this.match(logged);
      if (route) route.used++;
      const answer: ReplayResponse = route
        ? route.respond
          ? await route.respond(logged)
          : route
        : { status: 404, body: { error: `no recorded response for ${logged.method} ${req.url}` } };
      const delay = route?.delayMs ?? this.delayMs;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      if (res.destroyed) return;
      const body =
        answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(body);
    } catch (err) {
      if (!res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(err) }));
      }
    } finally {
      if (res.writableEnded || res.destroyed) finish();
    }
  }

  private match(req: ReplayRequest): LiveRoute | undefined {
    for (let i = this.routes.length - 1; i >= 0; i--) {
      const route = this.routes[i]!;
      if (route.times !== undefined && route.used >= route.times) continue;
      const method = route.method ?? 'GET';
      if (method !== '*' && method.toUpperCase() !== req.method.toUpperCase()) continue;
      if (route.path !== '*' && route.path !== req.path) continue;
      if (route.query && Object.entries(route.query).some(([k, v]) => req.query[k] !== v)) continue;
      return route;
    }
    return undefined;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw && contentType?.includes('json')) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}
