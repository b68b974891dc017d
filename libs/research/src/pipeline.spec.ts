import type { Finding, RunResult } from '@app/domain/search-run/search-run.events';
import { isWorded } from '@app/language';
import { citedIndexes, uncitedClaims } from './citations';
import { runResearch, type ResearchOutcome, type ResearchPorts } from './pipeline';
import { PAGES, pageText, VARIANT_URL } from './testing/fake-web';
import { normalizeUrl } from '@app/urls';
import { type Call, harness, INPUT, kinds, run } from './testing/pipeline-run';

describe('runResearch (extractive model, fake web)', () => {
  let full: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    full = await run();
  });

  it('plans the given queries first, capped at maxSubqueries, and announces pagesTarget', async () => {
    const { outcome, calls } = full;
    expect(outcome.subqueries).toHaveLength(5);
    expect(outcome.subqueries.slice(0, 2)).toEqual(['EV battery recycling cost', 'quantum gravity']);
    expect(calls[0]).toEqual(['planned', outcome.subqueries, 10]);

    const capped = await run({ maxSubqueries: 2, pagesPerSubquery: 3 });
    expect(capped.outcome.subqueries).toEqual(['EV battery recycling cost', 'quantum gravity']);
    expect(capped.calls[0]).toEqual(['planned', capped.outcome.subqueries, 6]);
    expect(new Set(capped.web.searches.map((s) => s.subquery))).toEqual(new Set(capped.outcome.subqueries));
  });

  it('reports progress in order, awaiting every callback before going on', () => {
    const { calls, overlaps, outcome, web } = full;
    expect(overlaps).toEqual([]);
    // planned, then per sub-query its SERP pages and a merge, then reads, then findings.
    const shape = kinds(calls)
      .map((k) => ({ planned: 'P', serpPage: 's', resultsMerged: 'M', pageFetched: 'f', findingGraded: 'g' })[k])
      .join('');
    expect(shape).toMatch(/^P(s+M){5}f+g+$/);
    // Each SERP page is reported with its hit count, in search order; paging stops when hasMore is false.
    expect(calls.filter((c) => c[0] === 'serpPage').map((c) => [c[1], c[2]])).toEqual(
      web.searches.map((s) => [s.subquery, s.page]),
    );
    expect(web.searches.filter((s) => s.subquery === 'quantum gravity')).toEqual([
      { subquery: 'quantum gravity', page: 1 },
    ]);
    expect(calls.find((c) => c[0] === 'serpPage' && c[1] === 'quantum gravity')).toEqual([
      'serpPage',
      'quantum gravity',
      1,
      0,
    ]);
    const merges = calls.filter((c) => c[0] === 'resultsMerged');
    expect(merges.every((c) => c[2] === false)).toBe(true);
    expect(merges[merges.length - 1]![1]).toEqual(outcome.results);
    expect(calls.filter((c) => c[0] === 'findingGraded').map((c) => c[1])).toEqual(outcome.findings);
  });

  it('merges results by normalised URL, keeping the best score, best first, within limit', async () => {
    const { outcome, web } = full;
    const keys = outcome.results.map((r) => normalizeUrl(r.url));
    expect(new Set(keys).size).toBe(keys.length);
    // The "recycled" sub-queries got a www/utm/fragment variant of the first page: one result.
    expect(web.searches.some((s) => /recycled/.test(s.subquery))).toBe(true);
    expect(keys.filter((k) => k === normalizeUrl(VARIANT_URL))).toHaveLength(1);
    // The best-scored copy wins (ties keep the first): the variant, found by a sub-query it matches better.
    expect(outcome.results.map((r) => r.url)).toContain(VARIANT_URL);
    expect(outcome.results.map((r) => r.url)).not.toContain(PAGES[0]!.url);
    const scores = outcome.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(outcome.results.find((r) => r.url === VARIANT_URL)!.score).toBe(1);

    const limited = await run({ limit: 3 });
    expect(limited.outcome.results).toHaveLength(3);
    expect(limited.outcome.sources).toHaveLength(3);
  });

  it('reads at most maxFetches pages, round-robin across sub-queries, never pages that came with content', async () => {
    const { web, calls, outcome } = full;
    const read = web.reads.flat();
    expect(read).toHaveLength(4);
    expect(read).not.toContain('https://local.test/heat-pump-guide');
    expect(calls.filter((c) => c[0] === 'pageFetched').map((c) => c[1])).toEqual(read);
    // Best-first alone would read the four battery pages (all score 1); round-robin gives the
    // heat-pump sub-queries their best page too.
    expect(read).toEqual([
      'https://news.example.com/battery-recycling-costs',
      VARIANT_URL,
      'https://dead.example.org/ev-recycling',
      'https://energy.example.org/heat-pumps-cold',
    ]);
    expect(outcome.sources.find((s) => s.url === 'https://local.test/heat-pump-guide')).toMatchObject({
      fetched: true,
    });

    for (const maxFetches of [0, 1, 2, 7]) {
      const { web: w } = await run({ maxFetches });
      expect(w.reads.flat().length).toBe(Math.min(maxFetches, 7)); // 7 = results without inline content
      expect(w.reads.every((batch) => batch.length <= 5)).toBe(true);
    }
  });

  it('reports failed reads as facts and numbers sources 1.. in first-seen order', () => {
    const { calls, outcome } = full;
    expect(calls).toContainEqual(['pageFetched', 'https://dead.example.org/ev-recycling', false, null, 'HTTP 404']);
    expect(calls).toContainEqual([
      'pageFetched',
      'https://energy.example.org/heat-pumps-cold',
      true,
      'Heat pumps in cold climates',
      null,
    ]);
    expect(outcome.sources.map((s) => s.index)).toEqual(outcome.sources.map((_, i) => i + 1));
    expect(outcome.sources[0]).toMatchObject({
      url: 'https://news.example.com/battery-recycling-costs',
      first_seen_subquery: 'EV battery recycling cost',
      fetched: true,
    });
    expect(outcome.sources.find((s) => s.url.includes('dead.example.org'))).toMatchObject({
      fetched: false,
      quality: 'low',
    });
    expect(new Set(outcome.sources.map((s) => normalizeUrl(s.url)))).toEqual(
      new Set(outcome.results.map((r) => normalizeUrl(r.url))),
    );
    expect(outcome.usage.pages_fetched).toBe(3); // four reads, one failed
  });

  it('grades each sub-query: citations and verbatim evidence resolve to its sources; no finding, no invention', () => {
    const { outcome } = full;
    const byIndex = new Map(outcome.sources.map((s) => [s.index, s]));
    expect(outcome.findings.map((f) => f.subquery)).toEqual(outcome.subqueries.filter((q) => q !== 'quantum gravity'));
    for (const f of outcome.findings) {
      expect(f.citations.length).toBeGreaterThan(0);
      for (const c of f.citations) expect(byIndex.has(c)).toBe(true);
      for (const e of f.evidence) {
        expect(f.citations).toContain(e.source);
        expect(pageText(byIndex.get(e.source)!.url)).toContain(e.quote);
      }
    }
    const costs = outcome.findings.find((f) => f.subquery === 'EV battery recycling cost')!;
    expect(costs.answer).toContain('costs between 1,000 and 3,000 euros');
    const heat = outcome.findings.find((f) => f.subquery === 'how efficient are heat pumps in cold climates')!;
    expect(
      heat.citations.map((c) => byIndex.get(c)!.domain).every((d) => !d.includes('bread') && !d.includes('recycle')),
    ).toBe(true);
  });

  it('writes a report whose every [N] resolves and every claim sentence is cited, with honest gaps', () => {
    const { outcome } = full;
    const report = outcome.report!;
    expect(report.startsWith(`# ${INPUT.prompt}\n`)).toBe(true);
    const indexes = new Set(outcome.sources.map((s) => s.index));
    expect(citedIndexes(report).length).toBeGreaterThan(2);
    for (const n of citedIndexes(report)) expect(indexes.has(n)).toBe(true);
    expect(uncitedClaims(report)).toEqual([]);
    // Answer first: the first paragraph quotes what answers the prompt.
    expect(report.split('\n\n')[1]).toContain('shredding the cells into black mass');
    // A section per given query and per worded sub-question, headed by it; no keyword-bag headings.
    for (const q of ['EV battery recycling cost', 'Quantum gravity', 'How efficient are heat pumps in cold climates'])
      expect(report).toContain(`## ${q}\n`);
    const headings = [...report.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(
      headings.filter(
        (h) =>
          !['Sources', 'Other evidence'].includes(h!) &&
          !isWorded(h!) &&
          !INPUT.queries.some((q) => q.toLowerCase() === h!.toLowerCase()),
      ),
    ).toEqual([]);
    expect(report).toContain('No source answered: quantum gravity');
    expect(report).toMatch(
      /## Sources\n\n\[1\] The cost of battery recycling in Europe — https:\/\/news\.example\.com\/battery-recycling-costs/,
    );
  });

  it('counts usage', () => {
    const { outcome, web, gradeSpy } = full;
    expect(outcome.usage).toEqual({
      planner_calls: 1,
      grader_calls: gradeSpy.mock.calls.length,
      synth_calls: 1,
      search_queries: web.searches.length,
      pages_fetched: 3,
      tokens: { input: 0, output: 0 },
    });
    // No results for "quantum gravity": nothing to grade, no call.
    expect(gradeSpy.mock.calls.map((c) => c[0])).not.toContain('quantum gravity');
    expect(gradeSpy).toHaveBeenCalledTimes(4);
    expect(web.searches).toHaveLength(9);
  });

  it('is deterministic: the same input and answers give the same outcome and progress', async () => {
    const again = await run();
    expect(again.outcome).toEqual(full.outcome);
    expect(again.calls).toEqual(full.calls);
  });

  it('stops new work at once when stopped() turns true mid-run, returning what it has', async () => {
    const stopAfterFirstRead = (calls: Call[]) => calls.some((c) => c[0] === 'pageFetched');
    const { outcome, calls, web, gradeSpy } = await run({}, { stopWhen: stopAfterFirstRead });
    expect(outcome.stopped).toBe(true);
    expect(outcome.report).toBeNull();
    expect(outcome.findings).toEqual([]);
    expect(kinds(calls).filter((k) => k === 'pageFetched')).toHaveLength(1);
    expect(kinds(calls)[calls.length - 1]).toBe('pageFetched');
    expect(web.reads).toHaveLength(1);
    expect(gradeSpy).not.toHaveBeenCalled();
    expect(outcome.results).toEqual(full.outcome.results);
    // Only the reported read counts as fetched.
    expect(outcome.sources.filter((s) => s.fetched && !s.url.includes('local.test'))).toHaveLength(1);
    expect(outcome.usage).toMatchObject({ synth_calls: 0, grader_calls: 0, pages_fetched: 1 });

    const afterSecondSerp = await run({}, { stopWhen: (c) => c.filter((x) => x[0] === 'serpPage').length >= 2 });
    expect(afterSecondSerp.outcome).toMatchObject({ stopped: true, report: null });
    expect(afterSecondSerp.web.searches).toHaveLength(2);
    expect(kinds(afterSecondSerp.calls)).toEqual(['planned', 'serpPage', 'serpPage']);

    const atOnce = await run({}, { stopWhen: () => true });
    expect(atOnce.outcome).toMatchObject({ stopped: true, subqueries: [], results: [], sources: [], report: null });
    expect(atOnce.outcome.usage.planner_calls).toBe(0);
    expect(atOnce.calls).toEqual([]);
  });

  it('re-ranks against an objective when a rerank port is given, and reads in the re-ranked order', async () => {
    const seen: Array<[string, RunResult[]]> = [];
    // Heat pump pages first, everything about bread dropped.
    const rerank: ResearchPorts['rerank'] = async (objective, results) => {
      seen.push([objective, results]);
      const heat = (r: RunResult) => (/heat/i.test(r.title) ? 1 : 0);
      return {
        results: results
          .filter((r) => !r.url.includes('bread'))
          .map((r) => ({ ...r, score: heat(r) ? 0.9 : 0.2 }))
          .sort((a, b) => heat(b) - heat(a)),
        usage: { input: 100, output: 10 },
      };
    };
    const { outcome, calls, web } = await run(
      { objective: 'heat pump efficiency', maxFetches: 1, queries: [], maxSubqueries: 1 },
      { rerank },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toBe('heat pump efficiency');
    expect(outcome.reranked).toBe(true);
    expect(calls.filter((c) => c[0] === 'resultsMerged').map((c) => c[2])).toEqual([false, true]);
    expect(outcome.results[0]!.title).toMatch(/heat/i);
    expect(outcome.results.some((r) => r.url.includes('bread'))).toBe(false);
    expect(web.reads.flat()).toEqual(['https://energy.example.org/heat-pumps-cold']);
    expect(outcome.usage.tokens).toEqual({ input: 100, output: 10 });

    const without = await run({ objective: null }, { rerank });
    expect(without.outcome.reranked).toBe(false);
    expect(seen).toHaveLength(1);
  });
});

describe('runResearch (model answers are checked)', () => {
  it('drops finding evidence citing sources the grader was not shown, and fails on a report citing unknown sources', async () => {
    const h = harness();
    const invented: Finding = {
      subquery: 'x',
      answer: 'a',
      citations: [99],
      confidence: 'high',
      evidence: [{ source: 99, quote: 'made up' }],
    };
    jest.spyOn(h.model, 'grade').mockResolvedValue({ finding: invented, usage: { input: 0, output: 0 } });
    jest
      .spyOn(h.model, 'synthesise')
      .mockResolvedValue({ report: '# x\n\nA claim. [42]\n', usage: { input: 0, output: 0 } });
    await expect(runResearch({ ...INPUT, maxSubqueries: 1 }, h.ports, h.progress)).rejects.toThrow(
      'the report cites sources that do not exist: [42]',
    );
    expect(kinds(h.calls)).not.toContain('findingGraded');
  });

  it('caps and de-duplicates whatever the planner answers', async () => {
    const h = harness();
    jest.spyOn(h.model, 'plan').mockResolvedValue({
      subqueries: ['heat pumps', ' heat  pumps ', 'sourdough', 'battery', 'cobalt'],
      usage: { input: 5, output: 7 },
    });
    const outcome: ResearchOutcome = await runResearch(
      { ...INPUT, maxSubqueries: 3, pagesPerSubquery: 1 },
      h.ports,
      h.progress,
    );
    expect(outcome.subqueries).toEqual(['heat pumps', 'sourdough', 'battery']);
    expect(outcome.usage.tokens).toEqual({ input: 5, output: 7 });
  });

  it('matches a read answer by position when the reader reports the URL it was redirected to', async () => {
    const h = harness();
    const read = h.ports.read;
    h.ports.read = async (urls) => {
      const docs = await read(urls);
      // In request order, each under its final (redirected) URL.
      return urls.map((u) => ({
        ...docs.find((d) => d.url === u)!,
        url: `https://moved.example/${encodeURIComponent(u)}`,
      }));
    };
    await runResearch({ ...INPUT, maxSubqueries: 1, maxFetches: 2 }, h.ports, h.progress);
    expect(h.calls.filter((c) => c[0] === 'pageFetched').map((c) => [c[1], c[2]])).toEqual([
      ['https://news.example.com/battery-recycling-costs', true],
      ['https://recycle.example.org/ev-batteries', true],
    ]);
  });
});
