import { normalizeUrl } from '@app/urls';
import type { ResearchPorts, ResearchProgress } from './ports';
import { addTokens, type Entry, mergedResults, type ResearchState, toResult } from './state';

/**
 * 2. Search and merge: sub-queries `from`.. (earlier ones are searched already), each up to
 * `pagesPer` SERP pages, every hit merged by URL; the merged results are recorded after each
 * sub-query. True when stopped.
 */
export async function searchAndMerge(
  state: ResearchState,
  ports: Pick<ResearchPorts, 'search'>,
  progress: ResearchProgress,
  from = 0,
): Promise<boolean> {
  for (let i = from; i < state.subqueries.length; i++) {
    const subquery = state.subqueries[i]!;
    for (let page = 1; page <= state.pagesPer; page++) {
      if (progress.stopped()) return true;
      const serp = await ports.search(subquery, page, { country: state.input.country, language: state.input.language });
      state.usage.search_queries++;
      for (const hit of serp.hits) state.entries.add(hit, Number.isFinite(hit.score) ? hit.score : 0, i);
      if (progress.stopped()) return true;
      await progress.serpPage(subquery, page, serp.hits.length);
      if (!serp.hasMore) break;
    }
    if (progress.stopped()) return true;
    await progress.resultsMerged(mergedResults(state), false);
  }
  return false;
}

/** 3. Re-rank the merged results against the objective, when there is one and a re-ranker. True when stopped. */
export async function rerank(
  state: ResearchState,
  ports: Pick<ResearchPorts, 'rerank'>,
  progress: ResearchProgress,
): Promise<boolean> {
  const objective = state.input.objective?.trim();
  if (!objective || !ports.rerank || mergedResults(state).length === 0) return false;
  if (progress.stopped()) return true;
  const answer = await ports.rerank(objective, mergedResults(state));
  addTokens(state, answer.usage);
  state.reranked = keepKnown(answer.results, state);
  if (progress.stopped()) return true;
  await progress.resultsMerged(state.reranked, true);
  return false;
}

/** The re-ranker's order, limited to results we know (once each): it cannot add URLs. */
function keepKnown(results: { url: string; score: number }[], state: ResearchState) {
  const out = [];
  const taken = new Set<string>();
  for (const r of results) {
    const key = normalizeUrl(r.url);
    const entry: Entry | undefined = state.entries.get(key);
    if (!entry || taken.has(key)) continue;
    taken.add(key);
    out.push({ ...toResult(entry), score: Number.isFinite(r.score) ? r.score : 0 });
  }
  return out;
}
