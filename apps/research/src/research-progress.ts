import type { ProcessorBudget, ResearchCommand, WithoutWorker } from '@app/domain';
import type { SchemaFillDocument } from '@app/language';
import type { ResearchOutcome, ResearchProgress } from '@app/research';
import { normalizeUrl } from '@app/urls';
import type { RunContext } from '@app/runs';

/**
 * The research pipeline's progress recorded as the run's facts (RecordPlan, RecordSerpPage, ...):
 * the same for every kind that runs the pipeline. `shapeResults` lets a kind size the results it
 * records (deep runs' excerpt settings).
 */
export function recordedProgress(
  run: Pick<RunContext<unknown, WithoutWorker<ResearchCommand>>, 'record' | 'stopped'>,
  shapeResults: (results: Parameters<ResearchProgress['resultsMerged']>[0]) => typeof results = (r) => r,
): ResearchProgress {
  return {
    planned: (subqueries, pages_target, round) =>
      run.record({ type: 'RecordPlan', subqueries, pages_target, ...(round && round > 1 && { round }) }),
    serpPage: (subquery, page, hits) => run.record({ type: 'RecordSerpPage', subquery, page, hits }),
    pageFetched: (url, ok, title, error, rendered) =>
      run.record({ type: 'RecordPageFetched', url, ok, title, error, ...(rendered && { rendered: true }) }),
    findingGraded: (finding) => run.record({ type: 'RecordFinding', finding }),
    resultsMerged: (results, reranked) =>
      run.record({ type: 'RecordResults', results: shapeResults(results), reranked }),
    stopped: run.stopped,
  };
}

/**
 * Steps a run took (API.md: planner, search, fetch batch, grader, synthesis): each charged one
 * credit. `extraCalls` are model calls after the pipeline (schema filling); a budget that grades
 * inside its synthesis step does not count grading apart.
 */
export function stepsTaken(outcome: ResearchOutcome, budget: ProcessorBudget, extraCalls = 0): number {
  const usage = outcome.usage;
  return Math.max(
    1,
    usage.planner_calls +
      usage.search_queries +
      outcome.readBatches +
      (budget.gradeInSynthesis ? 0 : usage.grader_calls) +
      usage.synth_calls +
      extraCalls,
  );
}

/** The pages the run saw, in source order: what schema filling and citations draw on. */
export function documentsOf(
  outcome: ResearchOutcome,
  texts: Map<string, { url: string; title: string; text: string }>,
): SchemaFillDocument[] {
  const ordered: SchemaFillDocument[] = [];
  const taken = new Set<string>();
  for (const source of outcome.sources) {
    const key = normalizeUrl(source.url);
    const page = texts.get(key);
    if (!page || taken.has(key)) continue;
    taken.add(key);
    ordered.push({ url: source.url, title: source.title, text: page.text });
  }
  return ordered;
}
