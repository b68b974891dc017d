import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { SiteMapper } from '../../../apps/extraction/src/crawl/site-map';
import { loadConfig } from '@app/config';
import { SqliteEventStore } from '@app/eventstore';
import { ExtractionWorkers } from '@app/extraction';
import { HttpFetcher, type Resolver } from '@app/fetch';

jest.setTimeout(120_000);

/** A loopback site answering with `handler`, and what a SiteMapper needs beside its fetcher: an event store and extraction threads. */
interface MapSite {
  port: number;
  events: SqliteEventStore;
  workers: ExtractionWorkers;
  close(): Promise<void>;
}

async function startMapSite(handler: http.RequestListener): Promise<MapSite> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-map-'));
  const events = new SqliteEventStore(path.join(dir, 'events.db'));
  const workers = new ExtractionWorkers({ timeoutMs: 5_000, size: 1 });
  return {
    port: (server.address() as AddressInfo).port,
    events,
    workers,
    async close() {
      await workers.close();
      await events.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const robotsTxt = (response: http.ServerResponse) =>
  response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');

/**
 * POST /v1/map's work (SiteMapper) with the real fetcher and extraction threads against a
 * loopback site whose sitemap lists 500 subdomains of one test host (every name resolves to
 * loopback, as a wildcard DNS record would point them at a victim): it reads robots.txt of at
 * most CRAWL_MAX_ORIGINS origins and opens connections to no others; candidates on the others
 * are left out.
 */
describe('map with include_subdomains and a sitemap of 500 subdomains', () => {
  let site: MapSite;
  let port: number;
  const hosts = new Map<string, number>();

  beforeAll(async () => {
    site = await startMapSite((request, response) => {
      const host = String(request.headers.host ?? '').split(':')[0]!;
      hosts.set(host, (hosts.get(host) ?? 0) + 1);
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/robots.txt') return void robotsTxt(response);
      if (url.pathname === '/sitemap.xml') {
        const locs = Array.from(
          { length: 500 },
          (_, i) => `<url><loc>http://s${i}.wild.test:${port}/page</loc></url>`,
        ).join('');
        return void response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(`<?xml version="1.0"?><urlset>${locs}<url><loc>http://wild.test:${port}/private/x</loc></url></urlset>`);
      }
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>Home</title></head><body><p>Home page.</p></body></html>');
    });
    port = site.port;
  });
  afterAll(() => site?.close());

  it('contacts at most the origin cap', async () => {
    const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const allowHosts = [`wild.test:${port}`, ...Array.from({ length: 500 }, (_, i) => `s${i}.wild.test:${port}`)];
    const fetcher = new HttpFetcher({
      allowHosts,
      resolver,
      robotsReader: { read: (text, agent, urls) => site.workers.robots(text, agent, urls) },
    });
    const config = { ...loadConfig({}), crawlMaxOrigins: 8 };
    const mapper = new SiteMapper(fetcher, site.events, site.workers, config);
    try {
      const reply = await mapper.map(
        { url: `http://wild.test:${port}/`, limit: 5_000, search: null, include_subdomains: true, sitemap: 'include' },
        { team_id: 'team_map', request_id: 'req-map', charge_id: 'charge-map' },
      );
      // The start origin and 7 subdomains: robots.txt and pages of no other host were asked for.
      expect(hosts.size).toBeLessThanOrEqual(8);
      expect(hosts.has('wild.test')).toBe(true);
      const listed = new Set(reply.links.map((link) => new URL(link.url).hostname));
      expect(listed.size).toBeLessThanOrEqual(8);
      expect(reply.links.length).toBeGreaterThanOrEqual(7);
      // robots.txt still decides: the disallowed path is left out.
      expect(reply.links.some((link) => link.url.includes('/private'))).toBe(false);
      expect(reply.credits).toBe(1);
    } finally {
      await fetcher.close();
    }
  });
});

/**
 * A site whose sitemap never finishes answering (headers sent, the body held open): the map reads
 * its start page and the pages that links to beside the sitemap, so when MAP_CALL_TIMEOUT_MS comes
 * the links found so far are listed, robots.txt judged, instead of nothing.
 */
describe('map of a site whose sitemap hangs, within MAP_CALL_TIMEOUT_MS', () => {
  let site: MapSite;
  const held: http.ServerResponse[] = [];

  beforeAll(async () => {
    site = await startMapSite((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/robots.txt') return void robotsTxt(response);
      if (url.pathname === '/sitemap.xml') {
        response.writeHead(200, { 'content-type': 'application/xml' }).write('<?xml version="1.0"?><urlset>');
        return void held.push(response);
      }
      const links = ['/a', '/b', '/private/c'].map((href) => `<a href="${href}">Page ${href}</a>`).join(' ');
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><head><title>Page ${url.pathname}</title></head><body>${links}</body></html>`);
    });
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    await site?.close();
  });

  it('lists the start page and its allowed links by the deadline', async () => {
    const fetcher = new HttpFetcher({
      allowHosts: [`127.0.0.1:${site.port}`],
      robotsReader: { read: (text, agent, urls) => site.workers.robots(text, agent, urls) },
      timeoutMs: 30_000,
    });
    const config = { ...loadConfig({}), mapCallTimeoutMs: 4_000 };
    const mapper = new SiteMapper(fetcher, site.events, site.workers, config);
    try {
      const started = performance.now();
      const reply = await mapper.map(
        {
          url: `http://127.0.0.1:${site.port}/`,
          limit: 100,
          search: null,
          include_subdomains: false,
          sitemap: 'include',
        },
        { team_id: 'team_map', request_id: 'req-hang', charge_id: 'charge-hang' },
      );
      const ms = performance.now() - started;
      expect(held.length).toBe(1);
      expect(reply.links.map((link) => new URL(link.url).pathname).sort()).toEqual(['/', '/a', '/b']);
      expect(reply.links.find((link) => link.url.endsWith('/a'))?.title).toBe('Page /a');
      // Gathering stops at three quarters of the call; the answer comes by its end (a margin for a busy machine).
      expect(ms).toBeGreaterThanOrEqual(2_900);
      expect(ms).toBeLessThan(4_000 + 3_000);
      expect(reply.credits).toBe(1);
    } finally {
      await fetcher.close();
    }
  });
});
