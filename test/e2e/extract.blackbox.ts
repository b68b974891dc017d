import { bearer } from '../support/service-process';
import { type E2eContext, json } from './harness';

/** /v1/extract over HTTP against pages of the fixture web (loopback, allowed by FETCH_ALLOW_HOSTS). */
export function extractSuite(ctx: E2eContext): void {
  describe('extract over HTTP', () => {
    const page = (host: string, route: string) => `${ctx.web.baseUrl(host)}${route}`;
    const post = (body: unknown) =>
      fetch(`${ctx.svc.baseUrl}/v1/extract`, {
        method: 'POST',
        headers: { ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('GET returns a page’s main text as markdown, without navigation, cookie banner, related links or footer', async () => {
      const url = page('news.example-daily.test', '/city/library-renovation');
      const response = await fetch(
        `${ctx.svc.baseUrl}/v1/extract?url=${encodeURIComponent(url)}&objective=${encodeURIComponent('library opening hours')}`,
        {
          headers: bearer(ctx.svc.demoKey),
        },
      );
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.credits).toBe(2);
      expect(body.usage).toEqual([{ sku: 'sku_extract', quantity: 1, credits: 2 }]);
      const [result] = body.results;
      expect(result).toMatchObject({ url, final_url: url, status: 200, error: null, language: 'en' });
      expect(result.title).toContain('Central library reopens after renovation');
      expect(result.content).toContain('eighteen-month renovation');
      expect(result.content).toContain('until 10 pm on weekdays');
      for (const boilerplate of [
        'We use cookies',
        'Accept all',
        'Most read',
        'Independent local journalism',
        'Subscribe from',
        'Front page',
      ]) {
        expect(result.content).not.toContain(boilerplate);
      }
      expect(result.published_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(result.excerpts.join(' ')).toContain('10 pm');
    });

    it('POST of 20 URLs returns every good page and a precise error for each bad one, 2 credits per good URL', async () => {
      const good = ctx.web
        .urls()
        .filter(
          (url) =>
            /acme-robotics|papers\.openscholar|news\.example-daily/.test(ctx.web.publicUrl(url)) &&
            !/internal|drafts|pdf|thank-you/.test(url),
        )
        .slice(0, 15);
      expect(good).toHaveLength(15);
      const bad = [
        page('acme-robotics.test', '/no-such-page'), // 404
        page('acme-robotics.test', '/files/brochure.pdf'), // a PDF with no readable text
        'http://127.0.0.1:9/', // allowed? no: not in FETCH_ALLOW_HOSTS -> refused by the SSRF guard
        'http://169.254.169.254/latest/meta-data/', // metadata address: refused before any connection
        'ftp://example.org/file.txt', // unsupported scheme
      ];
      const response = await post({
        urls: [...good.slice(0, 8), ...bad, ...good.slice(8)],
        format: 'text',
        objective: 'robots',
      });
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.results).toHaveLength(20);
      const byUrl = new Map<string, { error: string | null; content: string | null; status: number | null }>(
        body.results.map((r: { url: string }) => [r.url, r]),
      );
      for (const url of good) {
        expect(byUrl.get(url)).toMatchObject({ error: null, status: 200 });
        expect(byUrl.get(url)!.content!.length).toBeGreaterThan(30);
      }
      expect(byUrl.get(bad[0])!.error).toMatch(/404/);
      expect(byUrl.get(bad[1])!.error).toMatch(/PDF/);
      expect(byUrl.get(bad[2])!.error).toMatch(/refused/);
      expect(byUrl.get(bad[3])!.error).toMatch(/refused/);
      expect(byUrl.get(bad[4])!.error).toMatch(/scheme/);
      for (const url of bad) expect(byUrl.get(url)!.content).toBeNull();
      expect(body.credits).toBe(30);
      expect(body.usage).toEqual([{ sku: 'sku_extract', quantity: 15, credits: 30 }]);
    });

    it('keeps tables and headings as markdown', async () => {
      const body = await json(
        await post({
          urls: [page('acme-robotics.test', '/products/picker-arm-specs'), page('acme-robotics.test', '/products')],
        }),
      );
      expect(body.results[0].content).toMatch(/^\| Reach \| 1,150 mm \|$/m);
      expect(body.results[0].content).toMatch(/^\| --- \| --- \|$/m);
      expect(body.results[1].content).toMatch(/^# Our product line$/m);
    });

    it('answers 422 for a string that is not an absolute URL, and for more than 20 URLs', async () => {
      const notUrl = await post({ urls: ['https://example.org/', 'not a url'] });
      expect(notUrl.status).toBe(422);
      expect((await json(notUrl)).detail[0]).toMatchObject({ type: 'url_parsing', loc: ['body', 'urls', 1] });
      const tooMany = await post({ urls: Array.from({ length: 21 }, (_, i) => `https://example.org/${i}`) });
      expect(tooMany.status).toBe(422);
      expect((await json(tooMany)).detail[0]).toMatchObject({ type: 'too_long', loc: ['body', 'urls'] });
      const none = await post({ urls: [] });
      expect((await json(none)).detail[0]).toMatchObject({ type: 'too_short', loc: ['body', 'urls'] });
    });

    it('reads a page twice within its max-age with one fetch', async () => {
      const url = page('acme-robotics.test', '/careers');
      const before = ctx.web.requests('acme-robotics.test').filter((r) => r === '/careers').length;
      for (let i = 0; i < 2; i++) expect((await json(await post({ urls: [url] }))).results[0].error).toBeNull();
      const after = ctx.web.requests('acme-robotics.test').filter((r) => r === '/careers').length;
      expect(after - before).toBeLessThanOrEqual(1);
    });
  });
}
