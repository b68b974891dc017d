import type { RunResult } from '@app/domain/search-run/search-run.events';
import { fakePorts, hit, recorder, stateFor } from '../testing/stage-fakes';
import { rerank, searchAndMerge } from './search';
import { mergedResults } from './state';

const SERPS = {
  a: [[hit('https://x.example/1', 0.9), hit('https://x.example/2', 0.3)], [hit('https://x.example/3', 0.2)]],
  b: [[hit('https://x.example/2?utm_source=b', 0.8), hit('https://x.example/4', NaN)]],
};

describe('search-and-merge stage', () => {
  it('searches each sub-query page by page, merges by URL (best copy wins) and records pages then merges', async () => {
    const state = stateFor({ pagesPerSubquery: 2 }, (s) => (s.subqueries = ['a', 'b']));
    const ports = fakePorts(SERPS);
    const progress = recorder();
    expect(await searchAndMerge(state, ports, progress)).toBe(false);
    expect(ports.searched).toEqual([
      ['search', 'a', 1],
      ['search', 'a', 2],
      ['search', 'b', 1],
    ]);
    expect(state.usage.search_queries).toBe(3);
    expect(progress.calls.map((c) => c.slice(0, 3))).toEqual([
      ['serpPage', 'a', 1],
      ['serpPage', 'a', 2],
      ['resultsMerged', expect.any(Array), false],
      ['serpPage', 'b', 1],
      ['resultsMerged', expect.any(Array), false],
    ]);
    expect(mergedResults(state).map((r) => [r.url, r.score])).toEqual([
      ['https://x.example/1', 0.9],
      ['https://x.example/2?utm_source=b', 0.8],
      ['https://x.example/3', 0.2],
      ['https://x.example/4', 0],
    ]);
    expect([...state.entries.get('x.example/2')!.queries]).toEqual([0, 1]);
  });

  it('searches only the sub-queries from `from` on', async () => {
    const state = stateFor({}, (s) => (s.subqueries = ['a', 'b']));
    const ports = fakePorts(SERPS);
    await searchAndMerge(state, ports, recorder(), 1);
    expect(ports.searched).toEqual([['search', 'b', 1]]);
  });

  it('stops before the next page once stopped', async () => {
    const state = stateFor({ pagesPerSubquery: 2 }, (s) => (s.subqueries = ['a', 'b']));
    const ports = fakePorts(SERPS);
    const progress = recorder(1);
    expect(await searchAndMerge(state, ports, progress)).toBe(true);
    expect(ports.searched).toEqual([['search', 'a', 1]]);
    expect(progress.calls.map((c) => c[0])).toEqual(['serpPage']);
  });
});

describe('rerank stage', () => {
  it("takes the re-ranker's order of known URLs (once each), records it, and counts its tokens", async () => {
    const state = stateFor({ objective: ' find widgets ' }, (s) => (s.subqueries = ['a']));
    await searchAndMerge(state, fakePorts(SERPS), recorder());
    const asked: unknown[] = [];
    const ports = {
      rerank: async (objective: string, results: RunResult[]) => {
        asked.push(
          objective,
          results.map((r) => r.url),
        );
        return {
          results: [
            { ...results[1]!, score: 0.7 },
            { ...results[0]!, url: 'https://unknown.example/', score: 1 },
            { ...results[0]!, score: 0.5 },
            { ...results[1]!, score: 0.1 },
          ],
          usage: { input: 3, output: 1 },
        };
      },
    };
    const progress = recorder();
    expect(await rerank(state, ports, progress)).toBe(false);
    expect(asked[0]).toBe('find widgets');
    expect(state.reranked!.map((r) => [r.url, r.score])).toEqual([
      ['https://x.example/2', 0.7],
      ['https://x.example/1', 0.5],
    ]);
    expect(mergedResults(state)).toBe(state.reranked);
    expect(state.usage.tokens).toEqual({ input: 3, output: 1 });
    expect(progress.calls).toEqual([['resultsMerged', state.reranked, true]]);
  });

  it('does nothing without an objective or a re-ranker', async () => {
    const state = stateFor({}, (s) => (s.subqueries = ['a']));
    await searchAndMerge(state, fakePorts(SERPS), recorder());
    const progress = recorder();
    expect(await rerank(state, { rerank: async () => ({ results: [] }) }, progress)).toBe(false);
    expect(await rerank(stateFor({ objective: 'x' }), {}, progress)).toBe(false);
    expect(state.reranked).toBeNull();
    expect(progress.calls).toEqual([]);
  });
});
