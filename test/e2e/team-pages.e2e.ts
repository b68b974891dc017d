import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { type CrawlSite, startCrawlSite } from '../support/crawl-site';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(180_000);

/**
 * Team pages (API.md "Team pages"): a crawl with `index: true` indexes into the crawling team's
 * pages only. Its team's searches and runs find them, no other team's do; they survive a restart
 * of the search service; every search replica answers alike; DELETE /v1/crawl/{id}/index takes
 * them out everywhere; MAX_INDEXED_PAGES_PER_TEAM bounds them (429 naming it). Real processes,
 * NATS, SQLite files and HTTP on loopback, against test/support/crawl-site.ts.
 */
/** One query for each page the crawl of /about reads (/team, /new, /about). */
const QUERIES = ['Ada Grace Linus fixture company', 'this page replaced the old one', 'fixture widgets since 2001'];
const MAX_PAGES = 3;

type Caller = (method: string, route: string, body?: unknown) => Promise<Response>;
const caller =
  (svc: () => RunningService, key: () => string): Caller =>
  (method, route, body) =>
    fetch(`${svc().baseUrl}${route}`, {
      method,
      headers: { ...bearer(key()), 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function finished(call: Caller, id: string) {
  for (let i = 0; i < 600; i++) {
    const view = await json(await call('GET', `/v1/crawl/${id}?limit=100`));
    if (!['queued', 'running'].includes(view.status)) return view;
    await sleep(100);
  }
  throw new Error(`crawl ${id} did not end`);
}

/** The paths of the site's pages a search by `call` finds. */
async function sitePaths(call: Caller, site: CrawlSite): Promise<string[]> {
  const response = await call('POST', '/v1/search', { queries: QUERIES, depth: 'instant', limit: 20 });
  expect(response.status).toBe(200);
  const body = await json(response);
  return (body.results as { url: string }[])
    .filter((r) => r.url.startsWith(site.origin))
    .map((r) => new URL(r.url).pathname)
    .sort();
}

/** Crawls /about one hop deep with `index: true` (3 pages: /about, /team, /new): the crawl's id. */
async function indexSite(call: Caller, site: CrawlSite): Promise<string> {
  const res = await call('POST', '/v1/crawl', { url: `${site.origin}/about`, max_depth: 1, index: true });
  expect(res.status).toBe(202);
  const crawl = await finished(call, (await json(res)).crawl_id);
  expect(crawl).toMatchObject({ status: 'completed', counts: { read: 3 } });
  return crawl.crawl_id;
}

/** Docs each search replica's copy of the team's index holds (its SQLite file, read directly). */
function replicaTeamDocs(dataDir: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const root = path.join(dataDir, 'index');
  for (const copy of fs.readdirSync(root)) {
    const teams = path.join(root, copy, 'teams');
    const urls: string[] = [];
    if (fs.existsSync(teams)) {
      for (const file of fs.readdirSync(teams).filter((f) => f.endsWith('.db'))) {
        const db = new Database(path.join(teams, file), { readonly: true });
        try {
          urls.push(...(db.prepare('SELECT url FROM docs').pluck().all() as string[]));
        } finally {
          db.close();
        }
      }
    }
    found.set(copy, urls.map((u) => new URL(u).pathname).sort());
  }
  return found;
}

const ALL = ['/about', '/new', '/team'];

describe('team pages (standalone)', () => {
  let site: CrawlSite;
  let svc: RunningService;
  let keyB: string;
  const env = () => ({ FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`, MAX_INDEXED_PAGES_PER_TEAM: String(MAX_PAGES) });
  const asA = caller(
    () => svc,
    () => svc.demoKey,
  );
  const asB = caller(
    () => svc,
    () => keyB,
  );

  beforeAll(async () => {
    site = await startCrawlSite({ crawlDelay: 0 });
    svc = await startService('standalone', env());
    const made = await svc.keys('create', '--team', 'team-b');
    expect(made.code).toBe(0);
    keyB = made.stdout.trim();
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await site?.close();
  });

  let crawlId: string;

  it("a crawl with index: true is searchable by its team (searches and runs), by no other team's", async () => {
    expect(await sitePaths(asA, site)).toEqual([]);
    crawlId = await indexSite(asA, site);
    // The search waits for the index to hold what the log holds: found at once.
    expect(await sitePaths(asA, site)).toEqual(ALL);
    expect(await sitePaths(asB, site)).toEqual([]);

    // A run's searches (search.page) see the same: A's task considers the site's pages, B's none.
    const task = async (call: Caller) => {
      const res = await call('POST', '/v1/tasks', {
        task: 'Who runs the fixture company? Ada Grace Linus',
        processor: 'base',
        wait_seconds: 60,
      });
      expect(res.status).toBe(200);
      const view = await json(res);
      expect(view.status).toBe('completed');
      return (view.considered as string[]).filter((url) => url.startsWith(site.origin));
    };
    expect((await task(asA)).length).toBeGreaterThan(0);
    expect(await task(asB)).toEqual([]);
  });

  it('the team at MAX_INDEXED_PAGES_PER_TEAM: a crawl create with index: true is a 429 naming the bound; without index, and for another team, it is not', async () => {
    const refused = await asA('POST', '/v1/crawl', { url: `${site.origin}/`, index: true });
    expect(refused.status).toBe(429);
    expect((await json(refused)).detail).toMatch(/at most 3 pages \(MAX_INDEXED_PAGES_PER_TEAM\); this team's holds 3/);
    expect((await asA('POST', '/v1/crawl', { url: `${site.origin}/team`, max_depth: 0 })).status).toBe(202);
    const other = await asB('POST', '/v1/crawl', { url: `${site.origin}/team`, max_depth: 0, index: true });
    expect(other.status).toBe(202);
    await finished(asB, (await json(other)).crawl_id);
  });

  it('still searchable by its team, by it alone, after the service restarts on the same data dir', async () => {
    await svc.stop();
    svc = await startService('standalone', env(), { dataDir: svc.dataDir, key: svc.demoKey });
    expect(await sitePaths(asA, site)).toEqual(ALL);
    // B indexed /team itself: it sees that one page, none of A's.
    expect(await sitePaths(asB, site)).toEqual(['/team']);
  });

  it("DELETE /v1/crawl/{id}/index removes the crawl's pages (another team: 404); the team has room again", async () => {
    const foreign = await asB('DELETE', `/v1/crawl/${crawlId}/index`);
    expect(foreign.status).toBe(404);
    expect(await sitePaths(asA, site)).toEqual(ALL);

    const removed = await asA('DELETE', `/v1/crawl/${crawlId}/index`);
    expect(removed.status).toBe(200);
    expect(await json(removed)).toEqual({ crawl_id: crawlId, removed: 3 });
    expect(await sitePaths(asA, site)).toEqual([]);
    expect(await sitePaths(asB, site)).toEqual(['/team']);
    expect(await json(await asA('DELETE', `/v1/crawl/${crawlId}/index`))).toEqual({ crawl_id: crawlId, removed: 0 });
    expect((await asA('DELETE', '/v1/crawl/crawl_00000000-0000-0000-0000-000000000000/index')).status).toBe(404);

    const again = await asA('POST', '/v1/crawl', { url: `${site.origin}/team`, max_depth: 0, index: true });
    expect(again.status).toBe(202);
    await finished(asA, (await json(again)).crawl_id);
    expect(await sitePaths(asA, site)).toEqual(['/team']);
  });
});

describe('team pages on two search replicas (cluster, REPLICAS=search=2)', () => {
  let site: CrawlSite;
  let svc: RunningService;
  let keyB: string;
  const asA = caller(
    () => svc,
    () => svc.demoKey,
  );
  const asB = caller(
    () => svc,
    () => keyB,
  );

  beforeAll(async () => {
    site = await startCrawlSite({ crawlDelay: 0 });
    // A cluster of eight processes on a shared machine: boot gets longer than the default.
    svc = await startService(
      'cluster',
      { REPLICAS: 'search=2', FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}` },
      { readyTimeoutMs: 90_000 },
    );
    for (let i = 0; i < 200 && svc.servicePidHistory('search').length < 2; i++) await sleep(50);
    expect(svc.servicePidHistory('search')).toHaveLength(2);
    keyB = (await svc.keys('create', '--team', 'team-b')).stdout.trim();
  }, 150_000);
  afterAll(async () => {
    await svc?.stop();
    await site?.close();
  });

  /** NATS hands requests to the replicas in turn: several searches reach both, and each answers alike. */
  const everyAnswer = async (call: Caller) => {
    const answers = new Set<string>();
    for (let i = 0; i < 6; i++) answers.add(JSON.stringify(await sitePaths(call, site)));
    return [...answers].map((a) => JSON.parse(a) as string[]);
  };

  it('both replicas hold and answer the team its pages, none to another team; a replica restarted answers alike; DELETE empties both', async () => {
    const crawlId = await indexSite(asA, site);
    expect(await everyAnswer(asA)).toEqual([ALL]);
    expect(await everyAnswer(asB)).toEqual([[]]);
    // Each replica's own copy holds them (not one replica answering for both).
    const copies = replicaTeamDocs(svc.dataDir);
    expect([...copies.keys()].sort()).toEqual(['search-1', 'search-2']);
    for (const docs of copies.values()) expect(docs).toEqual(ALL);

    // A search replica killed is restarted by the supervisor: it answers as before.
    const before = svc.servicePids().get('search')!;
    process.kill(before, 'SIGKILL');
    for (
      let i = 0;
      i < 400 && (svc.servicePidHistory('search').length < 3 || (await fetch(`${svc.baseUrl}/readyz`)).status !== 200);
      i++
    )
      await sleep(50);
    expect(svc.servicePidHistory('search').length).toBeGreaterThanOrEqual(3);
    expect(await everyAnswer(asA)).toEqual([ALL]);
    expect(await everyAnswer(asB)).toEqual([[]]);

    expect((await asB('DELETE', `/v1/crawl/${crawlId}/index`)).status).toBe(404);
    expect(await json(await asA('DELETE', `/v1/crawl/${crawlId}/index`))).toEqual({ crawl_id: crawlId, removed: 3 });
    expect(await everyAnswer(asA)).toEqual([[]]);
    for (const docs of replicaTeamDocs(svc.dataDir).values()) expect(docs).toEqual([]);
  });
});
