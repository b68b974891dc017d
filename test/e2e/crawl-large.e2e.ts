import { CRAWL_LIMITS } from '@app/domain';
import { type GeneratedSite, startGeneratedSite } from '../support/generated-site';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(300_000);

const PAGES = 300;
const CHARS = 60_000;

type Page = {
  url: string;
  final_url: string | null;
  title: string | null;
  content: string | null;
  status: number | null;
  depth: number;
  error: string | null;
};

/**
 * A crawl whose pages together pass MongoDB's 16 MiB document limit many times over (300 pages of
 * 60,000 Chinese characters, 3 bytes each in UTF-8), the standalone service as an OS process: the
 * run completes, every page is readable through GET /v1/crawl/{id} page by page (its content up to
 * the crawl's cap), and no read-model write was refused (no dead letter in /readyz).
 */
describe('a crawl of 300 large CJK pages (standalone)', () => {
  let site: GeneratedSite;
  let svc: RunningService;

  beforeAll(async () => {
    site = await startGeneratedSite({ pages: PAGES, chars: CHARS });
    svc = await startService('standalone', { FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}` });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await site?.close();
  });

  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${svc.baseUrl}${route}`, {
      method,
      headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });

  it('completes with every page readable through GET /v1/crawl/{id}, paged, and no dead letter', async () => {
    const created = await json(await call('POST', '/v1/crawl', { url: `${site.origin}/`, limit: PAGES, max_depth: 1 }));
    expect(created.status).toBe('queued');
    let view: { status: string; counts: unknown; credits: number; termination: string | null } | undefined;
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      view = await json(await call('GET', `/v1/crawl/${created.crawl_id}?limit=1`));
      if (!['queued', 'running'].includes(view!.status)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(view).toMatchObject({
      status: 'completed',
      termination: 'limit_reached',
      counts: { pages: PAGES, read: PAGES, failed: 0 },
      credits: 2 * PAGES,
    });

    const pages: Page[] = [];
    for (let offset = 0; offset < PAGES + 100; offset += 100) {
      const res = await call('GET', `/v1/crawl/${created.crawl_id}?limit=100&offset=${offset}`);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toMatchObject({
        crawl_id: created.crawl_id,
        pages_limit: 100,
        pages_offset: offset,
        counts: { pages: PAGES },
      });
      pages.push(...body.pages);
    }
    // In the order read (breadth-first: the start page, then its links in order), each once.
    expect(pages.map((p) => new URL(p.url).pathname)).toEqual([
      '/',
      ...Array.from({ length: PAGES - 1 }, (_, i) => `/p/${i + 1}`),
    ]);
    pages.forEach((page, n) => {
      expect(page).toMatchObject({ status: 200, error: null, title: `页面 ${n}`, depth: n === 0 ? 0 : 1 });
      // The page's text, up to the crawl's content cap (the extraction adds markup between paragraphs).
      expect(page.content!.length).toBe(CRAWL_LIMITS.contentChars);
      expect(page.content!.replace(/\s+/g, '')).toContain(site.text(n).slice(0, 1_000));
    });

    const ready = await fetch(`${svc.baseUrl}/readyz`);
    const readiness = await json(ready);
    expect(readiness.checks.projector).toMatchObject({ ok: true, dead_letters: 0 });
    expect(ready.status).toBe(200);

    // The list and the summary show the run with its counts.
    const list = await json(await call('GET', '/v1/crawl'));
    expect(list.crawls.find((c: { crawl_id: string }) => c.crawl_id === created.crawl_id)).toMatchObject({
      status: 'completed',
      counts: { pages: PAGES },
    });
    const summary = await json(await call('GET', `/v1/crawl/${created.crawl_id}/summary`));
    expect(summary).toMatchObject({ status: 'completed', counts: { pages: PAGES, read: PAGES } });
    expect(summary.pages).toBeUndefined();
  });
});
