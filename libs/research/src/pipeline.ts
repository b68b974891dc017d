import { followUp } from './stages/follow-up';
import { grade } from './stages/grade';
import { plan } from './stages/plan';
import type { ResearchInput, ResearchOutcome, ResearchPorts, ResearchProgress } from './stages/ports';
import { read } from './stages/read';
import { rerank, searchAndMerge } from './stages/search';
import { initialState, outcomeOf } from './stages/state';
import { synthesise } from './stages/synthesise';

export {
  MAX_FOLLOW_UP_ROUNDS,
  MAX_PASSAGES,
  PASSAGE_CHARS,
  READ_BATCH,
  type ReadDocument,
  type ResearchInput,
  type ResearchOutcome,
  type ResearchPorts,
  type ResearchProgress,
  type SearchHit,
} from './stages/ports';

/**
 * The research pipeline: plan -> search (pages per sub-query) -> merge -> (rerank) -> read ->
 * grade per sub-query -> follow up -> synthesise, each a stage (./stages) over one research state
 * that it updates, in turn, until one is stopped. No clock, no randomness, ties broken by first-seen order:
 * the same input and the same search/read answers give the same plan, source numbering and
 * report, which is what lets the worker re-run it from the start after a crash.
 *
 * Search and model errors propagate (the caller decides between retry and failure); a failed read
 * is a fact (PageFetched ok=false), not an error. Hits are merged by URL (`UrlMerge`: the
 * best-scored copy wins). Sources are the final merged results, numbered 1.. in first-seen order. Each sub-query is graded against its own results (the read text focused
 * on it, or the snippet when no read was tried) plus documents read for other sub-queries that mention its
 * terms (shared evidence), at most MAX_PASSAGES.
 */
export async function runResearch(
  input: ResearchInput,
  ports: ResearchPorts,
  progress: ResearchProgress,
): Promise<ResearchOutcome> {
  const state = initialState(input);
  const stopped =
    (await plan(state, ports, progress)) ||
    (await searchAndMerge(state, ports, progress)) ||
    (await rerank(state, ports, progress)) ||
    (await read(state, ports, progress)) ||
    (await grade(state, ports, progress)) ||
    (await followUp(state, ports, progress)) ||
    (await synthesise(state, ports, progress));
  return outcomeOf(state, stopped);
}
