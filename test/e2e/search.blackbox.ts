import { bearer } from '../support/service-process';
import { type E2eContext, json } from './harness';

type Row = {
  url: string;
  title: string;
  snippet: string;
  excerpts: string[];
  date: string | null;
  domain: string;
  category: string | null;
  score: number;
  text?: string;
  highlights?: string[];
  summary?: string;
};

/** POST /v1/search (instant, fast, auto) over the local index built by crawling the fixture web at boot. */
export function searchSuite(ctx: E2eContext): void {
  describe('search over HTTP', () => {
    const post = (body: Record<string, unknown>) =>
      fetch(`${ctx.svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: { ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const search = async (body: Record<string, unknown>) => {
      const response = await post(body);
      expect(response.status).toBe(200);
      return json(response);
    };
    const rows = async (body: Record<string, unknown>): Promise<Row[]> => (await search(body)).results;
    const daysAgo = (date: string) => (Date.now() - Date.parse(`${date}T00:00:00Z`)) / 86_400_000;

    it('answers with the full response shape, relevant rows first, and charges one credit', async () => {
      const body = await search({ queries: ['sodium-ion cathode doping'] });
      expect(body).toMatchObject({
        depth: 'auto',
        queries: ['sodium-ion cathode doping'],
        reranked: false,
        dropped_off_topic: 0,
        credits: 1,
      });
      expect(body.usage).toEqual([{ sku: 'sku_search', quantity: 1, credits: 1 }]);
      expect(body.search_id).toMatch(/^search_/);
      expect(body.session_id).toMatch(/^session_/);
      expect(body.timing_ms).toEqual({ total: expect.any(Number), provider: expect.any(Number), rerank: 0 });
      expect(body.results[0].url).toBe('https://papers.openscholar.test/abs/2403.01234');
      expect(body.results[0]).toMatchObject({ domain: 'papers.openscholar.test', category: 'research_paper' });
      for (let i = 1; i < body.results.length; i++)
        expect(body.results[i - 1].score).toBeGreaterThanOrEqual(body.results[i].score);
    });

    it('merges several queries and de-duplicates by normalised URL', async () => {
      const [a, b, merged] = await Promise.all([
        rows({ queries: ['sodium-ion battery'], limit: 50, depth: 'fast' }),
        rows({ queries: ['sodium-ion cathode'], limit: 50, depth: 'fast' }),
        rows({ queries: ['sodium-ion battery', 'sodium-ion cathode'], limit: 50, depth: 'fast' }),
      ]);
      const union = new Set([...a, ...b].map((r) => r.url));
      const shared = a.filter((r) => b.some((s) => s.url === r.url));
      expect(shared.length).toBeGreaterThan(0);
      expect(merged.map((r) => r.url).sort()).toEqual([...union].sort());
      expect(new Set(merged.map((r) => r.url)).size).toBe(merged.length);
    });

    it('category keeps only rows of that category', async () => {
      const all = await rows({ queries: ['sodium-ion battery'], limit: 30 });
      expect(all.some((r) => r.category !== 'research_paper')).toBe(true);
      const papers = await rows({ queries: ['sodium-ion battery'], limit: 30, category: 'research_paper' });
      expect(papers.length).toBeGreaterThan(0);
      expect(papers.every((r) => r.category === 'research_paper')).toBe(true);
    });

    it('freshness keeps only dated rows inside the window', async () => {
      const all = await rows({ queries: ['Harborview city council street'], limit: 30 });
      expect(all.some((r) => r.date && daysAgo(r.date) > 8)).toBe(true);
      const week = await rows({ queries: ['Harborview city council street'], limit: 30, freshness: 'week' });
      expect(week.length).toBeGreaterThan(0);
      for (const r of week) expect(daysAgo(r.date!)).toBeLessThanOrEqual(8);
    });

    it('include_domains keeps the domain and its subdomains', async () => {
      const all = await rows({ queries: ['battery'], limit: 30 });
      expect(all.some((r) => !r.domain.endsWith('example-daily.test'))).toBe(true);
      const only = await rows({ queries: ['battery'], limit: 30, include_domains: ['example-daily.test'] });
      expect(only.length).toBeGreaterThan(0);
      expect(only.every((r) => r.domain === 'example-daily.test' || r.domain.endsWith('.example-daily.test'))).toBe(
        true,
      );
    });

    it('exclude_domains drops the domain and its subdomains', async () => {
      const all = await rows({ queries: ['battery'], limit: 30 });
      expect(all.some((r) => r.domain.endsWith('example-daily.test'))).toBe(true);
      const without = await rows({ queries: ['battery'], limit: 30, exclude_domains: ['example-daily.test'] });
      expect(without.length).toBeGreaterThan(0);
      expect(without.some((r) => r.domain.endsWith('example-daily.test'))).toBe(false);
    });

    it('advanced_settings.source_policy applies a date window', async () => {
      const all = await rows({ queries: ['Harborview'], limit: 30 });
      const dated = all
        .filter((r) => r.date)
        .map((r) => r.date!)
        .sort();
      expect(dated.length).toBeGreaterThan(2);
      const after = dated[Math.floor(dated.length / 2)];
      const windowed = await rows({
        queries: ['Harborview'],
        limit: 30,
        advanced_settings: { source_policy: { after_date: after } },
      });
      expect(windowed.length).toBeGreaterThan(0);
      expect(windowed.every((r) => r.date !== null && r.date >= after)).toBe(true);
      expect(windowed.length).toBeLessThan(all.length);
    });

    it('limit caps the rows and max_excerpt_chars caps every excerpt-like character across rows', async () => {
      expect(await rows({ queries: ['battery'], limit: 2 })).toHaveLength(2);
      // Snippet, excerpts, highlights and summary all count; the page text has its own max_chars.
      const total = (rs: Row[]) =>
        rs.reduce(
          (sum, r) =>
            sum + r.snippet.length + [...r.excerpts, ...(r.highlights ?? []), r.summary ?? ''].join('').length,
          0,
        );
      const contents = { text: true, highlights: true, summary: true, max_chars: 500 };
      expect(total(await rows({ queries: ['battery'], limit: 10, advanced_settings: { contents } }))).toBeGreaterThan(
        300,
      );
      expect(total(await rows({ queries: ['battery'], limit: 10, max_excerpt_chars: 300 }))).toBeLessThanOrEqual(300);
      const capped = await rows({
        queries: ['battery'],
        limit: 10,
        max_excerpt_chars: 300,
        advanced_settings: { contents },
      });
      expect(total(capped)).toBeLessThanOrEqual(300);
      expect(capped.filter((r) => r.text).every((r) => r.text!.length > 50)).toBe(true);
    });

    it('an objective re-ranks the rows, drops an off-topic one, and is charged', async () => {
      const plain = await search({ queries: ['battery'], limit: 20 });
      const focused = await search({
        queries: ['battery'],
        limit: 20,
        objective: 'sodium-ion cathode research papers',
      });
      expect(focused.reranked).toBe(true);
      expect(focused.dropped_off_topic).toBeGreaterThan(0);
      expect(focused.results.length).toBe(plain.results.length - focused.dropped_off_topic);
      expect(focused.results.map((r: Row) => r.url)).not.toEqual(
        plain.results.map((r: Row) => r.url).slice(0, focused.results.length),
      );
      expect(focused.results.slice(0, 3).some((r: Row) => r.url.includes('papers.openscholar.test'))).toBe(true);
      expect(focused.usage).toEqual([
        { sku: 'sku_search', quantity: 1, credits: 1 },
        { sku: 'sku_objective_rerank', quantity: 1, credits: 1 },
      ]);
      expect(focused.credits).toBe(2);
    });

    it('mode and location are aliases that depth and country override', async () => {
      expect((await search({ queries: ['battery'], mode: 'basic' })).depth).toBe('fast');
      expect((await search({ queries: ['battery'], mode: 'advanced' })).depth).toBe('auto');
      expect((await search({ queries: ['battery'], mode: 'basic', depth: 'instant' })).depth).toBe('instant');
      const located = await search({ queries: ['battery'], location: 'de' });
      expect(located.warnings.join(' ')).toContain('"de"');
      const both = await search({ queries: ['battery'], location: 'de', country: 'fr' });
      expect(both.warnings.join(' ')).toContain('"fr"');
      expect(both.warnings.join(' ')).not.toContain('"de"');
    });

    it('depths differ in work: auto focuses excerpts from the page text, instant and fast return the snippet', async () => {
      const [fast, auto] = await Promise.all([
        rows({ queries: ['tram extension airport'], depth: 'fast', limit: 1 }),
        rows({
          queries: ['tram extension airport'],
          depth: 'auto',
          limit: 1,
          objective: 'when will the tram line open',
        }),
      ]);
      expect(fast[0].url).toBe(auto[0].url);
      expect(fast[0].excerpts).toEqual([(fast[0] as Row & { snippet: string }).snippet]);
      expect(auto[0].excerpts.join(' ')).not.toEqual((auto[0] as Row & { snippet: string }).snippet);
    });

    it('advanced_settings.contents returns page text per row and charges sku_contents_text', async () => {
      const body = await search({
        queries: ['battery'],
        limit: 5,
        advanced_settings: { contents: { text: true, highlights: true, max_chars: 500 } },
      });
      expect(body.results).toHaveLength(5);
      for (const r of body.results) {
        expect(r.text.length).toBeGreaterThan(50);
        expect(r.text.length).toBeLessThanOrEqual(500);
        expect(Array.isArray(r.highlights)).toBe(true);
      }
      expect(body.usage).toContainEqual({ sku: 'sku_contents_text', quantity: 5, credits: 1 });
      expect(body.credits).toBe(2);
    });

    it('Idempotency-Key replays the first answer and charges once; another body with the key is a 422', async () => {
      const idem = {
        ...bearer(ctx.svc.demoKey),
        'Content-Type': 'application/json',
        'Idempotency-Key': `e2e-${Date.now()}`,
      };
      const body = JSON.stringify({ queries: ['battery'], limit: 3 });
      const first = await fetch(`${ctx.svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: { ...idem, 'X-Request-Id': 'idem-first' },
        body,
      });
      const second = await fetch(`${ctx.svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: { ...idem, 'X-Request-Id': 'idem-second' },
        body,
      });
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect((await json(second)).search_id).toBe((await json(first)).search_id);
      expect(
        (await fetch(`${ctx.svc.baseUrl}/v1/usage/requests/idem-second`, { headers: bearer(ctx.svc.demoKey) })).status,
      ).toBe(404);
      expect(
        (
          await json(
            await fetch(`${ctx.svc.baseUrl}/v1/usage/requests/idem-first`, { headers: bearer(ctx.svc.demoKey) }),
          )
        ).credits,
      ).toBe(1);
      const other = await fetch(`${ctx.svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: idem,
        body: JSON.stringify({ queries: ['robot'] }),
      });
      expect(other.status).toBe(422);
      expect((await json(other)).detail[0]).toMatchObject({
        type: 'idempotency_key_reuse',
        loc: ['header', 'idempotency-key'],
      });
    });

    it.each([
      [{ queries: [] }, 'too_short', ['body', 'queries'], { min_length: 1 }],
      [{ queries: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'too_long', ['body', 'queries'], { max_length: 5 }],
      [{ queries: ['a'], limit: 0 }, 'greater_than_equal', ['body', 'limit'], { ge: 1 }],
      [{ queries: ['a'], limit: 101 }, 'less_than_equal', ['body', 'limit'], { le: 100 }],
      [
        { queries: ['a'], depth: 'deepest' },
        'enum',
        ['body', 'depth'],
        { expected: "'instant', 'fast', 'auto' or 'deep'" },
      ],
      [
        { queries: ['a'], category: 'blogs' },
        'enum',
        ['body', 'category'],
        { expected: "'company', 'research_paper', 'news', 'personal_site', 'financial_report' or 'people'" },
      ],
      [{}, 'missing', ['body', 'queries'], undefined],
      [{ queries: ['a'], limit: 'ten' }, 'int_parsing', ['body', 'limit'], undefined],
    ])('answers 422 for %j', async (body, type, loc, context) => {
      const response = await post(body);
      expect(response.status).toBe(422);
      const detail = (await json(response)).detail;
      expect(detail[0]).toMatchObject({ type, loc, ...(context && { ctx: expect.objectContaining(context) }) });
    });
  });
}
