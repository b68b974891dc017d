import { SkuLineItemSchema } from '../charge/charge.events';
import { fold, NotFound } from '../decider';
import { totalCredits } from '../pricing';
import { FindingSchema, SourceSchema } from '../run/research-progress';
import { publicStatus, runEndedAt } from '../run/run.decider';
import { terminationOf } from '../run/run-budget';
import { RUN_STATUSES } from '../run/run.events';
import { AnyObject, MapOf, Nullable, type Static, StringEnum, Type } from '../schema';
import { taskRunDecider, type TaskRunState } from './task-run.decider';
import {
  TASK_PROCESSORS,
  TaskFieldBasisSchema,
  type TaskOutputSpec,
  type TaskRunEvent,
  TaskUsageSchema,
} from './task-run.events';

/**
 * The public task run (spec "Task run"; API.md "Run views"): the schema is its one declaration,
 * served as the OpenAPI document's `TaskRun` and as the MCP task tools' output schema.
 */
export const TaskRunViewSchema = Type.Object(
  {
    task_id: Type.String(),
    run_id: Type.String(),
    status: StringEnum(RUN_STATUSES),
    interaction_id: Type.String({
      description: 'Pass it as previous_interaction_id to a task or deep search that follows this one',
    }),
    previous_interaction_id: Nullable(Type.String({ description: 'The interaction this run followed' })),
    task: Type.String(),
    query: Type.String(),
    credits: Type.Number(),
    processor: StringEnum(TASK_PROCESSORS),
    metadata: Nullable(MapOf(Type.String())),
    fields: Type.Array(Type.String()),
    output_schema: Type.Unsafe<TaskOutputSpec>(AnyObject()),
    output: Type.Unsafe<unknown>({
      anyOf: [AnyObject(), Type.String(), Type.Null()],
      description: 'json: the object; text/auto: a string; null until completed',
    }),
    basis: Type.Array(TaskFieldBasisSchema),
    usage: Nullable(TaskUsageSchema),
    answer: Type.String(),
    sources: Type.Array(Type.String()),
    read: Type.Array(Type.String()),
    considered: Type.Array(Type.String()),
    termination_reason: Nullable(
      StringEnum(['budget_exhausted'], {
        description: 'budget_exhausted: the run stopped at its max_credits with what it had; null otherwise',
      }),
    ),
    error: Nullable(Type.String()),
    createdAt: Type.String(),
    completedAt: Nullable(Type.String()),
    report: Nullable(Type.String()),
    findings: Nullable(Type.Array(FindingSchema)),
    sources_detailed: Nullable(Type.Array(SourceSchema)),
    usage_items: Type.Array(SkuLineItemSchema),
  },
  { $id: 'TaskRun' },
);
export type TaskRunView = Static<typeof TaskRunViewSchema>;

/** Output field names: a JSON schema's top-level properties, otherwise the one field `output`. */
export function outputFields(spec: TaskOutputSpec): string[] {
  if (spec.type !== 'json') return ['output'];
  const schema = spec.json_schema;
  const properties = schema.properties;
  return schema.type === 'object' && properties && typeof properties === 'object'
    ? Object.keys(properties)
    : ['output'];
}

const stateOf = (input: TaskRunState | readonly TaskRunEvent[]): TaskRunState =>
  'status' in input ? input : fold(taskRunDecider, input);

/** Output, basis, answer and the URL lists stay empty until the run completes (spec "States"). */
export const taskRunView = (input: TaskRunState | readonly TaskRunEvent[]): TaskRunView => {
  const state = stateOf(input);
  if (state.status === 'absent') throw new NotFound('task run does not exist');
  const { params } = state;
  const done = state.status === 'completed' ? state.progress.output : null;
  return {
    task_id: state.run_id,
    run_id: state.run_id,
    status: publicStatus(state),
    interaction_id: state.run_id,
    previous_interaction_id: params.follows?.interaction_id ?? null,
    task: params.task,
    query: params.task,
    credits: totalCredits(state.charged),
    processor: params.processor,
    metadata: params.metadata,
    fields: outputFields(params.output_schema),
    output_schema: params.output_schema,
    output: done ? done.output : null,
    basis: done?.basis ?? [],
    usage: done?.usage ?? null,
    answer: done?.answer ?? '',
    sources: done?.sources ?? [],
    read: done?.read ?? [],
    considered: done?.considered ?? [],
    termination_reason: terminationOf(state),
    error: state.status === 'failed' ? state.error : null,
    createdAt: state.requested_at,
    completedAt: runEndedAt(state),
    report: done?.report ?? null,
    findings: done?.findings ?? null,
    sources_detailed: done?.sources_detailed ?? null,
    usage_items: state.charged,
  };
};
