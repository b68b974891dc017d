import { existsSync, promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

/**
 * The fixture web (`test/fixtures/web/`) served on loopback.
 *
 * Scheme: every made-up site (`acme-robotics.test`, `news.example-daily.test`, ...) gets its own
 * HTTP server on 127.0.0.1 and a random port, so each site is its own origin with its own
 * robots.txt, and "same site" means something to a crawler. The SSRF guard lets 127.0.0.1
 * through (`allowHosts`), and no DNS trick is needed. Every page declares its public address
 * (`<link rel=canonical>` and `og:url` on `https://<site><path>`), but the local index takes a
 * canonical only on the host a page was fetched from, so the public host comes from the seed:
 * `fixtureSeed` writes `https://<site>=<loopback origin>/` (crawl this mirror as that site).
 * Search results, domain and subdomain filters then see `news.example-daily.test`, not
 * `127.0.0.1:41234`.
 *
 * A site is a folder named for its host. Page files are HTML templates rendered once at start:
 *   {{> name}}          the site's `_name.html` partial, else `_shared/_name.html`
 *   {{canonical}}       https://<host><route>;  {{host}} the site's host
 *   {{date:-3d}}        YYYY-MM-DD that long before start (units m, h, d); {{datetime:-40m}} ISO time
 *   {{quarter:-1}}      `Q2 2025`: the last completed quarter (-2 the one before, ...)
 *   {{site:<host>}}     the loopback origin of another fixture site (links that must not be followed)
 * Routes: `a/b.html` and `a/b/index.html` answer `/a/b` and `/a/b/` (a trailing-slash twin); the
 * query string is ignored (tracking-parameter twins). Other files answer at their own path.
 * `_routes.json` adds redirects and extensionless non-HTML routes; `aliases.json` serves a
 * folder under a second host too (the `www.` twin).
 */
export interface FixtureWeb {
  /** The loopback origin serving a made-up host, e.g. `http://127.0.0.1:41234`. */
  baseUrl(host: string): string;
  /** Every made-up host, aliases included. */
  hosts: string[];
  /** Every page (HTML route) of every host, as a loopback URL. */
  urls(): string[];
  /** The public address a loopback URL stands for (`https://<host><path>`). */
  publicUrl(loopbackUrl: string): string;
  /** Request paths (with query) a host has answered since start, in order. */
  requests(host: string): string[];
  /** `host:port` entries for `FETCH_ALLOW_HOSTS` / the fetcher's allow list. */
  allowHosts: string[];
  /** Relative dates in the pages count back from this. */
  startedAt: Date;
  /** Serves `html` (rendered like a page file) at `route` from now on: a page that changed since the last crawl. */
  setPage(host: string, route: string, html: string): Promise<void>;
  /** Answers 404 at `route` (and its trailing-slash twin) from now on. */
  removePage(host: string, route: string): void;
  stop(): Promise<void>;
}

/** test/fixtures/web in the source tree (also when this file runs compiled from dist/). */
export const FIXTURE_WEB_DIR = (() => {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, 'test', 'fixtures', 'web');
})();

type Route = { status: number; type: string; body: string | Buffer; location?: string };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.json': 'application/json',
  '.xml': 'application/rss+xml',
  '.png': 'image/png',
};

/** `delayMs`: every answer waits this long (a slow web, so a run can be caught mid-way). */
export async function startFixtureWeb(dir = FIXTURE_WEB_DIR, options: { delayMs?: number } = {}): Promise<FixtureWeb> {
  const startedAt = new Date();
  const aliases: Record<string, string> = JSON.parse(
    await fs.readFile(path.join(dir, 'aliases.json'), 'utf8').catch(() => '{}'),
  );
  const folders = (await fs.readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
    .map((e) => e.name);
  const hosts = [...folders, ...Object.keys(aliases)].sort();
  const servers = new Map<string, { server: http.Server; origin: string; log: string[] }>();

  // Listen first: pages link to other sites' loopback origins, so every port must be known before rendering.
  for (const host of hosts) {
    const log: string[] = [];
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.set(host, { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log });
  }
  const originOf = (host: string) => {
    const entry = servers.get(host);
    if (!entry) throw new Error(`fixture web has no host ${host} (hosts: ${hosts.join(', ')})`);
    return entry.origin;
  };

  const pages = new Map<string, string[]>();
  const sites = new Map<string, Map<string, Route>>();
  for (const host of hosts) {
    const routes = await loadSite(dir, aliases[host] ?? host, startedAt, originOf);
    sites.set(host, routes);
    // One URL per page: not the trailing-slash twins, redirects or error pages.
    const isPage = (route: string) =>
      routes.get(route)!.status === 200 && routes.get(route)!.type.startsWith('text/html');
    pages.set(
      host,
      [...routes.keys()].filter((route) => isPage(route) && (route === '/' || !route.endsWith('/'))),
    );
    const { server, log } = servers.get(host)!;
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (options.delayMs) {
        setTimeout(() => server.emit('delayed-request', req, res), options.delayMs);
        return;
      }
      server.emit('delayed-request', req, res);
    });
    server.on('delayed-request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      log.push(req.url ?? '/');
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://fixture').pathname);
      const route = routes.get(pathname);
      if (!route) {
        res
          .writeHead(404, { 'content-type': 'text/html; charset=utf-8' })
          .end('<html><body><h1>Not found</h1></body></html>');
        return;
      }
      res
        .writeHead(route.status, {
          'content-type': route.type,
          ...(route.location ? { location: route.location } : {}),
        })
        .end(route.body);
    });
  }

  return {
    baseUrl: originOf,
    hosts,
    urls: () => hosts.flatMap((host) => pages.get(host)!.map((route) => `${originOf(host)}${route}`)),
    publicUrl: (loopbackUrl: string) => {
      const url = new URL(loopbackUrl);
      const host = hosts.find((h) => originOf(h) === url.origin);
      if (!host) throw new Error(`${loopbackUrl} is not served by the fixture web`);
      return `https://${aliases[host] ?? host}${url.pathname}`;
    },
    requests: (host: string) => [...(servers.get(host)?.log ?? [])],
    allowHosts: hosts.map((host) => originOf(host).replace('http://', '')),
    startedAt,
    setPage: async (host, route, html) => {
      originOf(host);
      const folderHost = aliases[host] ?? host;
      const body = await render(html, {
        host: folderHost,
        route,
        startedAt,
        originOf,
        partial: partials(dir, folderHost),
      });
      const page: Route = { status: 200, type: TYPES['.html'], body };
      sites.get(host)!.set(route, page);
      if (route !== '/') sites.get(host)!.set(`${route.replace(/\/$/, '')}/`, page);
    },
    removePage: (host, route) => {
      originOf(host);
      sites.get(host)!.delete(route);
      sites.get(host)!.delete(`${route.replace(/\/$/, '')}/`);
    },
    stop: async () => {
      await Promise.all(
        [...servers.values()].map(
          ({ server }) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
        ),
      );
    },
  };
}

/** Every route of one site, rendered. `folderHost` is the folder (and the public host) a host serves. */
async function loadSite(
  dir: string,
  folderHost: string,
  startedAt: Date,
  originOf: (host: string) => string,
): Promise<Map<string, Route>> {
  const root = path.join(dir, folderHost);
  const routes = new Map<string, Route>();
  const partial = partials(dir, folderHost);

  for (const file of await listFiles(root)) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    const ext = path.extname(relative);
    if (path.basename(relative).startsWith('_')) continue;
    if (ext !== '.html') {
      const body = await fs.readFile(file);
      routes.set(`/${relative}`, {
        status: 200,
        type: TYPES[ext] ?? 'application/octet-stream',
        body: ext === '.txt' ? body.toString('utf8') : body,
      });
      continue;
    }
    const route = `/${relative.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '')}`.replace(/\/$/, '') || '/';
    const template = await fs.readFile(file, 'utf8');
    const html = await render(template, { host: folderHost, route, startedAt, originOf, partial });
    routes.set(route, { status: 200, type: TYPES['.html'], body: html });
    if (route !== '/') routes.set(`${route}/`, { status: 200, type: TYPES['.html'], body: html });
  }

  const extra = JSON.parse(await fs.readFile(path.join(root, '_routes.json'), 'utf8').catch(() => '{}')) as Record<
    string,
    { redirect?: string; file?: string; type?: string }
  >;
  for (const [from, spec] of Object.entries(extra)) {
    if (spec.redirect) {
      const location = spec.redirect.replace(/\{\{site:([^}]+)\}\}/g, (_, other: string) => originOf(other));
      routes.set(from, { status: 301, type: TYPES['.html'], body: '', location });
    } else if (spec.file) {
      routes.set(from, {
        status: 200,
        type: spec.type ?? 'application/octet-stream',
        body: await fs.readFile(path.join(root, spec.file)),
      });
    }
  }
  return routes;
}

/** A site's `_name.html`, else the shared one. */
const partials = (dir: string, folderHost: string) => (name: string) =>
  fs
    .readFile(path.join(dir, folderHost, `_${name}.html`), 'utf8')
    .catch(() => fs.readFile(path.join(dir, '_shared', `_${name}.html`), 'utf8'));

interface RenderContext {
  host: string;
  route: string;
  startedAt: Date;
  originOf: (host: string) => string;
  partial: (name: string) => Promise<string>;
}

async function render(template: string, ctx: RenderContext): Promise<string> {
  let html = template;
  // Partials first (two levels), so they may use the other placeholders too.
  for (let pass = 0; pass < 2 && html.includes('{{>'); pass++) {
    const names = [...html.matchAll(/\{\{>\s*([\w-]+)\s*\}\}/g)].map((m) => m[1]);
    const bodies = new Map(
      await Promise.all([...new Set(names)].map(async (name) => [name, await ctx.partial(name)] as const)),
    );
    html = html.replace(/\{\{>\s*([\w-]+)\s*\}\}/g, (_, name: string) => bodies.get(name)!);
  }
  return html.replace(/\{\{(\w+)(?::([^}]+))?\}\}/g, (whole, key: string, arg?: string) => {
    switch (key) {
      case 'canonical':
        return `https://${ctx.host}${ctx.route === '/' ? '/' : ctx.route}`;
      case 'host':
        return ctx.host;
      case 'date':
        return shifted(ctx.startedAt, arg!).toISOString().slice(0, 10);
      case 'datetime':
        return shifted(ctx.startedAt, arg!)
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z');
      case 'quarter':
        return quarterLabel(ctx.startedAt, Number(arg ?? -1));
      case 'site':
        return ctx.originOf(arg!);
      default:
        throw new Error(`unknown placeholder ${whole} in a page of ${ctx.host}${ctx.route}`);
    }
  });
}

function shifted(start: Date, offset: string): Date {
  const match = /^([+-]?\d+)([mhd])$/.exec(offset.trim());
  if (!match) throw new Error(`bad relative time ${offset}: want e.g. -3d, -5h, -40m`);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  return new Date(start.getTime() + Number(match[1]) * unit);
}

/** `Q3 2025` for `quarters` (<= -1) quarters back from the one `start` falls in. */
function quarterLabel(start: Date, quarters: number): string {
  const index = start.getUTCFullYear() * 4 + Math.floor(start.getUTCMonth() / 3) + quarters;
  return `Q${(index % 4) + 1} ${Math.floor(index / 4)}`;
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out.sort();
}

/**
 * One fixture site as a LOCAL_INDEX_SEEDS entry: its loopback server crawled as the public host
 * (`https://acme-robotics.test=http://127.0.0.1:41234/`). The `www.` twin maps to its own host;
 * its pages' canonicals on the apex then collapse into the apex's documents.
 */
export const fixtureSeed = (web: FixtureWeb, host: string): string => `https://${host}=${web.baseUrl(host)}/`;

/** The fixture web's sites as LOCAL_INDEX_SEEDS (the `www.` twin is not a site of its own). */
export const fixtureSeeds = (web: FixtureWeb): string =>
  web.hosts
    .filter((host) => !host.startsWith('www.'))
    .map((host) => fixtureSeed(web, host))
    .join(',');
