import { assertCitationsResolve } from '../citations';
import type { ResearchPorts, ResearchProgress } from './ports';
import { addTokens, type ResearchState, sourcesOf } from './state';

/**
 * 7. Synthesise: the cited report over the findings and sources (skipped when the input says so);
 * every citation must resolve to a source. True when stopped.
 */
export async function synthesise(
  state: ResearchState,
  ports: Pick<ResearchPorts, 'model'>,
  progress: ResearchProgress,
): Promise<boolean> {
  if (progress.stopped()) return true;
  if (state.input.synthesise === false) return false;
  const { input } = state;
  const topic = input.prompt.trim() || input.queries.join('; ');
  const sources = sourcesOf(state);
  const written = await ports.model.synthesise(topic, state.findings, sources, {
    subqueries: state.subqueries,
    restatements: state.restatements,
    queries: input.queries,
  });
  state.usage.synth_calls++;
  addTokens(state, written.usage);
  assertCitationsResolve(written.report, sources);
  state.report = written.report;
  return false;
}
