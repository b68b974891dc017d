import type { SkuLineItem } from '../charge/charge.events';
import { NotFound } from '../decider';
import { totalCredits } from '../pricing';
import { publicStatus, runEndedAt } from '../run/run.decider';
import type { FindAllState } from './findall.decider';
import type { Candidate, FindAllSchema, TerminationReason } from './findall.events';

export interface FindAllStatusObject {
  status: 'completed' | 'cancelled' | 'failed';
  is_active: false;
  termination_reason: TerminationReason;
  metrics: { generated_candidates: number; matched_candidates: number };
}

/** The public FindAll run (spec "FindAll run"; API.md "FindAll shapes"). */
export interface FindAllView {
  findall_id: string;
  status: 'queued' | 'running' | FindAllStatusObject;
  query: string;
  fields: string[] | null;
  output_schema: Record<string, unknown> | null;
  metadata: { title: string; input: string };
  findall_schema: FindAllSchema | null;
  entities: Record<string, unknown>[];
  count: number;
  candidates: Candidate[] | null;
  credits: number;
  usage_items: SkuLineItem[];
  error: string | null;
  createdAt: string;
  completedAt: string | null;
}

/** An entity row: name, url and each requested field, flat. */
export const entityRow = (c: Candidate): Record<string, unknown> => ({ name: c.name, url: c.url, ...c.output });

/** Entities grow as matches are confirmed; candidates (matched and not) are shown once the run ends. */
export function findAllView(state: FindAllState): FindAllView {
  if (state.status === 'absent') throw new NotFound('FindAll run does not exist');
  const { params, progress } = state;
  const matched = progress.candidates.filter((c) => c.match_status === 'matched');
  const shown = publicStatus(state);
  const ended = shown === 'completed' || shown === 'cancelled' || shown === 'failed';
  const termination: TerminationReason =
    shown === 'cancelled'
      ? 'cancelled'
      : shown === 'failed'
        ? 'error'
        : (progress.termination ?? 'candidates_exhausted');
  return {
    findall_id: state.run_id,
    status: ended
      ? {
          status: shown,
          is_active: false,
          termination_reason: termination,
          metrics: { generated_candidates: progress.candidates.length, matched_candidates: matched.length },
        }
      : shown,
    query: params.query,
    fields: params.fields,
    output_schema: params.output_schema,
    metadata: { title: progress.schema?.objective ?? params.query, input: params.query },
    findall_schema: progress.schema,
    entities: matched.map(entityRow),
    count: matched.length,
    candidates: ended ? progress.candidates.filter((c) => c.match_status !== 'pending').map((c) => ({ ...c })) : null,
    credits: totalCredits(state.charged),
    usage_items: state.charged,
    error: state.status === 'failed' ? state.error : null,
    createdAt: state.requested_at,
    completedAt: runEndedAt(state),
  };
}
