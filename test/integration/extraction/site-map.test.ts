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

/**
 * POST /v1/map's work (SiteMapper) with the real fetcher and extraction threads against a
 * loopback site whose sitemap lists 500 subdomains of one test host (every name resolves to
 * loopback, as a wildcard DNS record would point them at a victim): it reads robots.txt of at
 * most CRAWL_MAX_ORIGINS origins and opens connections to no others; candidates on the others
 * are left out.
 */
describe('map with include_subdomains and a sitemap of 500 subdomains', () => {
  let server: http.Server;
  let port: number;
  const hosts = new Map<string, number>();
  let dir: string;
  let events: SqliteEventStore;
  let workers: ExtractionWorkers;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const host = String(request.headers.host ?? '').split(':')[0]!;
      hosts.set(host, (hosts.get(host) ?? 0) + 1);
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/robots.txt')
        return void response
          .writeHead(200, { 'content-type': 'text/plain' })
          .end('User-agent: *\nDisallow: /private\n');
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
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-map-'));
    events = new SqliteEventStore(path.join(dir, 'events.db'));
    workers = new ExtractionWorkers({ timeoutMs: 5_000, size: 1 });
  });
  afterAll(async () => {
    await workers.close();
    await events.close();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('contacts at most the origin cap', async () => {
    const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const allowHosts = [`wild.test:${port}`, ...Array.from({ length: 500 }, (_, i) => `s${i}.wild.test:${port}`)];
    const fetcher = new HttpFetcher({
      allowHosts,
      resolver,
      robotsReader: { read: (text, agent, urls) => workers.robots(text, agent, urls) },
    });
    const config = { ...loadConfig({}), crawlMaxOrigins: 8 };
    const mapper = new SiteMapper(fetcher, events, workers, config);
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
