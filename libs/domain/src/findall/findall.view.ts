import { SkuLineItemSchema } from '../charge/charge.events';
import { NotFound } from '../decider';
import { totalCredits } from '../pricing';
import { publicStatus, runEndedAt } from '../run/run.decider';
import type { FindAllState } from './findall.decider';
import { type Candidate, CandidateSchema, FindAllSchemaSchema, type TerminationReason } from './findall.events';
import { AnyObject, Nullable, type Static, StringEnum, Type } from '../schema';

export const FindAllStatusObjectSchema = Type.Object({
  status: StringEnum(['completed', 'cancelled', 'failed']),
  is_active: Type.Literal(false),
  termination_reason: StringEnum(['limit_reached', 'candidates_exhausted', 'budget_exhausted', 'cancelled', 'error']),
  metrics: Type.Object({ generated_candidates: Type.Integer(), matched_candidates: Type.Integer() }),
});
export type FindAllStatusObject = Static<typeof FindAllStatusObjectSchema>;

/**
 * The public FindAll run (spec "FindAll run"; API.md "FindAll shapes"): the schema is its one
 * declaration, served as the OpenAPI document's `FindAllRun` and the MCP FindAll tools' output schema.
 */
export const FindAllViewSchema = Type.Object(
  {
    findall_id: Type.String(),
    status: Type.Union([StringEnum(['queued', 'running']), FindAllStatusObjectSchema]),
    query: Type.String(),
    fields: Nullable(Type.Array(Type.String())),
    output_schema: Nullable(AnyObject()),
    metadata: Type.Object({ title: Type.String(), input: Type.String() }),
    findall_schema: Nullable(FindAllSchemaSchema),
    entities: Type.Array(AnyObject()),
    count: Type.Integer(),
    candidates: Nullable(Type.Array(CandidateSchema)),
    credits: Type.Number(),
    usage_items: Type.Array(SkuLineItemSchema),
    error: Nullable(Type.String()),
    createdAt: Type.String(),
    completedAt: Nullable(Type.String()),
  },
  { $id: 'FindAllRun' },
);
export type FindAllView = Static<typeof FindAllViewSchema>;

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
        : state.status === 'completed' && state.termination_reason
          ? state.termination_reason
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
