import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type CrawlSite, startCrawlSite } from '../support/crawl-site';
import { connectStdioMcp } from '../support/mcp-stdio';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(120_000);

/** Every page robots.txt allows that the site's sitemaps and links name (the redirect at its target). */
const ALLOWED = [
  '/',
  '/about',
  '/blog/only-in-sitemap',
  '/docs/',
  '/docs/a',
  '/docs/a/b',
  '/docs/a/b/c',
  '/docs/guide.pdf',
  '/new',
  '/team',
];

type Obj = Record<string, any>;
type Page = { url: string; title: string | null; content: string | null; error: string | null; depth: number };
const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const pathOf = (url: string) => new URL(url).pathname;
/** The page a progress message is about: `read <url>: <title>` or `could not read <url> (<error>)`. */
const pageOf = (message: string) => /^(?:read|could not read) (\S+?):?(?: |$)/.exec(message)?.[1];

/**
 * The MCP tools `map`, `crawl` and `get_crawl` through the official SDK client (Streamable HTTP,
 * and stdio for a crawl), against the loopback site of test/support/crawl-site.ts and the
 * standalone service as an OS process: what they answer is what the REST operations answer, with
 * a progress notification per page read, and they are charged as those operations.
 */
describe('MCP map and crawl tools (standalone, loopback site)', () => {
  let site: CrawlSite;
  let svc: RunningService;
  let client: Client;
  const clients: Client[] = [];
  const transportErrors: Error[] = [];

  beforeAll(async () => {
    site = await startCrawlSite();
    // The map follows links about fifteen requests deep at the site's 0.3 s Crawl-delay (4.6 s alone,
    // near the default 6 s of gathering): given 60 s, as what is checked is what it lists.
    svc = await startService('standalone', {
      FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`,
      MAP_CALL_TIMEOUT_MS: '60000',
    });
    client = new Client({ name: 'e2e-http', version: '1.0.0' });
    client.onerror = (error) => transportErrors.push(error);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), {
        requestInit: { headers: bearer(svc.demoKey) },
      }),
    );
    clients.push(client);
  }, 60_000);
  afterAll(async () => {
    for (const each of clients) await each.close().catch(() => undefined);
    await svc?.stop();
    await site?.close();
    expect(transportErrors).toEqual([]);
  });

  const rest = async (method: string, route: string, body?: unknown) =>
    json(
      await fetch(`${svc.baseUrl}${route}`, {
        method,
        headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
  const usage = async (): Promise<Map<string, number>> => {
    const bySku = new Map<string, number>();
    for (const day of (await rest('GET', '/v1/usage')).days as { sku: string; credits: number }[])
      bySku.set(day.sku, (bySku.get(day.sku) ?? 0) + day.credits);
    return bySku;
  };
  const delta = (before: Map<string, number>, after: Map<string, number>) =>
    Object.fromEntries(
      [...after]
        .map(([sku, credits]) => [sku, credits - (before.get(sku) ?? 0)])
        .filter(([, credits]) => credits !== 0),
    );
  /** Usage since `before`, once it shows `credits` in all (charges are recorded as pages are read). */
  async function charged(before: Map<string, number>, credits: number): Promise<Record<string, number>> {
    let seen: Record<string, number> = {};
    for (let i = 0; i < 50; i++) {
      seen = delta(before, await usage());
      if (Object.values(seen).reduce((sum, n) => sum + n, 0) >= credits) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return seen;
  }
  async function crawled(id: string): Promise<Obj> {
    for (let i = 0; i < 600; i++) {
      const view = await rest('GET', `/v1/crawl/${id}?limit=100`);
      if (!['queued', 'running'].includes(view.status)) return view;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`crawl ${id} did not end`);
  }

  it('map lists every allowed page with its title, none robots.txt disallows; structuredContent is the REST response', async () => {
    const result = (await client.callTool({ name: 'map', arguments: { url: `${site.origin}/` } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const response = result.structuredContent as Obj;
    expect(response).toMatchObject({
      url: `${site.origin}/`,
      credits: 1,
      usage: [{ sku: 'sku_map', quantity: 1, credits: 1 }],
    });
    const links = response.links as { url: string; title?: string }[];
    expect(links.map((link) => pathOf(link.url)).sort()).toEqual([...ALLOWED].sort());
    const text = textOf(result);
    expect(text).toContain(`${links.length} URLs on ${site.origin}/`);
    for (const link of links) expect(text).toContain(`${link.url}${link.title ? ` (${link.title})` : ''}`);
    expect(text).toContain(`${site.origin}/team (Our team)`);
    expect(text).not.toContain('/private/');

    const ranked = (await client.callTool({
      name: 'map',
      arguments: { url: `${site.origin}/`, search: 'team', limit: 2, sitemap: 'include' },
    })) as CallToolResult;
    expect((ranked.structuredContent as Obj).links).toHaveLength(2);
    expect(pathOf((ranked.structuredContent as Obj).links[0].url)).toBe('/team');
  });

  it('crawl returns the pages read (URL, title, start of content), a progress notification per page, as GET /v1/crawl/{id} shows them', async () => {
    const progress: string[] = [];
    const result = (await client.callTool(
      { name: 'crawl', arguments: { url: `${site.origin}/`, limit: 50, wait_seconds: 90 } },
      undefined,
      { timeout: 100_000, onprogress: (p) => void progress.push(p.message ?? '') },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const view = result.structuredContent as Obj;
    expect(view).toMatchObject({
      crawl_id: expect.stringMatching(/^crawl_/),
      status: 'completed',
      termination: 'frontier_exhausted',
      limit: 50,
      max_depth: 3,
      pages_offset: 0,
    });
    const pages = view.pages as Page[];
    expect(pages.map((page) => pathOf(page.url))).toEqual([
      '/',
      '/about',
      '/docs/',
      '/new',
      '/docs/guide.pdf',
      '/team',
      '/docs/a',
      '/docs/a/b',
    ]);
    // The REST operation's own answer for the same page of pages.
    expect(view).toEqual(await rest('GET', `/v1/crawl/${view.crawl_id}?limit=50&offset=0`));

    // One progress notification for each page, as the run's stream announced it.
    const announced = progress.map(pageOf).filter(Boolean);
    expect(announced.sort()).toEqual(pages.map((page) => page.url).sort());
    expect(progress).toContain(`read ${site.origin}/team: Our team`);
    expect(progress.at(-1)).toBe('completed');

    const text = textOf(result);
    expect(text.startsWith(`Crawl of ${site.origin}/ completed: ${pages.length} pages`)).toBe(true);
    for (const page of pages) {
      expect(text).toContain(page.url);
      if (page.title) expect(text).toContain(page.title);
    }
    expect(text).toContain('Ada, Grace and Linus run the fixture company.');
    expect(text).toContain(`crawl_id: ${view.crawl_id}`);

    const paged = (await client.callTool({
      name: 'get_crawl',
      arguments: { crawl_id: view.crawl_id, limit: 2, offset: 3 },
    })) as CallToolResult;
    expect(paged.isError).toBeFalsy();
    expect((paged.structuredContent as Obj).pages.map((page: Page) => pathOf(page.url))).toEqual([
      '/new',
      '/docs/guide.pdf',
    ]);
    expect(textOf(paged)).toContain(`get_crawl with crawl_id "${view.crawl_id}" and offset 5`);
  });

  it('map and crawl are charged as POST /v1/map and the crawl run they start (checked in /v1/usage)', async () => {
    const args = { url: `${site.origin}/about`, max_depth: 1 };
    const before = await usage();
    const mapped = (await client.callTool({
      name: 'map',
      arguments: { url: `${site.origin}/`, sitemap: 'only' },
    })) as CallToolResult;
    const result = (await client.callTool({ name: 'crawl', arguments: args }, undefined, {
      timeout: 100_000,
    })) as CallToolResult;
    expect(mapped.isError).toBeFalsy();
    expect(result.isError).toBeFalsy();
    const viaMcpView = result.structuredContent as Obj;
    expect(viaMcpView.status).toBe('completed');
    const viaMcp = await charged(before, 1 + viaMcpView.credits);

    const middle = await usage();
    expect((await rest('POST', '/v1/map', { url: `${site.origin}/`, sitemap: 'only' })).credits).toBe(1);
    const viaRestView = await crawled((await rest('POST', '/v1/crawl', args)).crawl_id);
    const viaRest = await charged(middle, 1 + viaRestView.credits);
    expect(viaMcp).toEqual(viaRest);
    expect(viaMcp).toEqual({ sku_map: 1, sku_crawl_page: 2 * viaRestView.counts.read });
    expect(viaRestView.counts.read).toBe(3);
  });

  it('a bad argument is a tool error naming the field and bound; a REST refusal carries its 422 detail; nothing is started', async () => {
    const before = (await rest('GET', '/v1/crawl')).crawls.length;
    for (const name of ['map', 'crawl']) {
      const refused = (await client.callTool({
        name,
        arguments: { url: `${site.origin}/`, limit: 0 },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe('limit: must be >= 1');
    }
    const deep = (await client.callTool({
      name: 'crawl',
      arguments: { url: `${site.origin}/`, max_depth: 11 },
    })) as CallToolResult;
    expect(textOf(deep)).toBe('max_depth: must be <= 10');
    const badPattern = (await client.callTool({
      name: 'crawl',
      arguments: { url: `${site.origin}/`, include_paths: ['('] },
    })) as CallToolResult;
    expect(badPattern.isError).toBe(true);
    expect(textOf(badPattern)).toMatch(/^422: include_paths\.0: /);
    const badUrl = (await client.callTool({ name: 'map', arguments: { url: 'ftp://example.com/' } })) as CallToolResult;
    expect(badUrl.isError).toBe(true);
    expect(textOf(badUrl)).toMatch(/^422: url: /);
    expect((await rest('GET', '/v1/crawl')).crawls.length).toBe(before);
  });

  it('over stdio: a crawl whose wait ends first answers its crawl_id, reporting the pages read so far; get_crawl has them all later', async () => {
    const stdio = await connectStdioMcp(svc, (error) => transportErrors.push(error));
    clients.push(stdio);

    const progress: string[] = [];
    const startedAt = Date.now();
    // Nine requests 0.3 s apart (the site's Crawl-delay): the crawl outlasts a 1 s wait.
    const result = (await stdio.callTool(
      { name: 'crawl', arguments: { url: `${site.origin}/`, wait_seconds: 1 } },
      undefined,
      { onprogress: (p) => void progress.push(p.message ?? '') },
    )) as CallToolResult;
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(result.isError).toBeFalsy();
    const view = result.structuredContent as Obj;
    expect(['queued', 'running']).toContain(view.status);
    expect(textOf(result)).toContain(`get_crawl with crawl_id "${view.crawl_id}"`);
    for (const url of progress.map(pageOf).filter(Boolean)) expect(textOf(result)).toContain(url!);

    const done = await crawled(view.crawl_id);
    expect(done.status).toBe('completed');
    const later = (await stdio.callTool({
      name: 'get_crawl',
      arguments: { crawl_id: view.crawl_id },
    })) as CallToolResult;
    expect((later.structuredContent as Obj).pages).toEqual(done.pages);
    expect(textOf(later)).toMatch(/^Crawl of .* completed: 8 pages/);
  });
});
