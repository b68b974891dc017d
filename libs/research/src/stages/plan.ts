import type { ResearchPorts, ResearchProgress } from './ports';
import { addTokens, oneLine, type ResearchState } from './state';

/** 1. Plan: the model's sub-queries, capped and unique, recorded as the plan (round 1). True when stopped. */
export async function plan(
  state: ResearchState,
  ports: Pick<ResearchPorts, 'model'>,
  progress: ResearchProgress,
): Promise<boolean> {
  if (progress.stopped()) return true;
  const planned = await ports.model.plan(state.input.prompt, state.input.queries, state.maxSubqueries);
  state.usage.planner_calls++;
  addTokens(state, planned.usage);
  // The cap and uniqueness are the pipeline's promise, whatever a model answers.
  state.subqueries = [...new Set(planned.subqueries.map(oneLine).filter(Boolean))].slice(0, state.maxSubqueries);
  if (progress.stopped()) return true;
  await progress.planned(state.subqueries, state.subqueries.length * state.pagesPer);
  return false;
}
