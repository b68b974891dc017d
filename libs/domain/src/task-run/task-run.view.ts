import type { SkuLineItem } from '../charge/charge.events';
import { fold, NotFound } from '../decider';
import { totalCredits } from '../pricing';
import type { Finding, Source } from '../run/research-progress';
import { publicStatus, runEndedAt } from '../run/run.decider';
import type { RunStatus } from '../run/run.events';
import { taskRunDecider, type TaskRunState } from './task-run.decider';
import type { TaskFieldBasis, TaskOutputSpec, TaskProcessor, TaskRunEvent, TaskUsage } from './task-run.events';

/** The public task run (spec "Task run"; API.md "Run views"). */
export interface TaskRunView {
  task_id: string;
  run_id: string;
  status: RunStatus;
  task: string;
  query: string;
  credits: number;
  processor: TaskProcessor;
  metadata: Record<string, string> | null;
  fields: string[];
  output_schema: TaskOutputSpec;
  output: unknown;
  basis: TaskFieldBasis[];
  usage: TaskUsage | null;
  answer: string;
  sources: string[];
  read: string[];
  considered: string[];
  error: string | null;
  createdAt: string;
  completedAt: string | null;
  report: string | null;
  findings: Finding[] | null;
  sources_detailed: Source[] | null;
  usage_items: SkuLineItem[];
}

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
    error: state.status === 'failed' ? state.error : null,
    createdAt: state.requested_at,
    completedAt: runEndedAt(state),
    report: done?.report ?? null,
    findings: done?.findings ?? null,
    sources_detailed: done?.sources_detailed ?? null,
    usage_items: state.charged,
  };
};
