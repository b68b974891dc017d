import type { DomainEvent } from '../decider';
import type { Finding, ResearchCommand, ResearchEvent, ResearchProgress, Source } from '../run/research-progress';
import type { LifecycleEvent } from '../run/run.events';
import { Confidence, Nullable, type Static, TokenCounts, Type } from '../schema';
import type { FollowUpContext } from '../run/follow-up-context';

/**
 * Events of a `task-<id>` stream: a task run (spec "Task run"). The lifecycle is the shared one
 * (`TaskRun*`); progress is the research pipeline's facts plus the written output.
 */
export type TaskProcessor = 'base' | 'core' | 'ultra';
export const TASK_PROCESSORS: readonly TaskProcessor[] = ['base', 'core', 'ultra'];

/** The output spec, normalised from the four forms the API accepts (a bare JSON Schema becomes `json`). */
export type TaskOutputSpec =
  { type: 'json'; json_schema: Record<string, unknown> } | { type: 'text' } | { type: 'auto' };

export interface TaskParams {
  task: string;
  processor: TaskProcessor;
  output_schema: TaskOutputSpec;
  metadata: Record<string, string> | null;
  webhook: string | null;
  /** The run's own budget in credits (API.md "Budgets"): it never charges past it; absent or null: none. */
  max_credits?: number | null;
  /** The interaction this run follows (API.md "Follow-ups"), as the gateway found it; absent: none. */
  follows?: FollowUpContext | null;
  /** The task group it belongs to (API.md "Task groups"), and its number there (the order added). */
  taskgroup_id?: string;
  taskgroup_seq?: number;
}

/**
 * What a processor may spend (API.md "Task create body"). A step is one planner call, one search,
 * one batch of page reads, one grading call or one synthesis (or schema-filling) call; base grades
 * inside its synthesis step.
 */
export interface ProcessorBudget {
  steps: number;
  fetches: number;
  subqueries: number;
  readBatch: number;
  gradeInSynthesis: boolean;
  /** The research tier: report, findings and sources_detailed are filled. */
  research: boolean;
}

export const PROCESSOR_BUDGETS: Record<TaskProcessor, ProcessorBudget> = {
  base: { steps: 4, fetches: 6, subqueries: 1, readBatch: 6, gradeInSynthesis: true, research: false },
  core: { steps: 12, fetches: 18, subqueries: 4, readBatch: 9, gradeInSynthesis: false, research: false },
  ultra: { steps: 30, fetches: 30, subqueries: 8, readBatch: 10, gradeInSynthesis: false, research: true },
};

export const TaskCitationSchema = Type.Object({
  url: Type.String(),
  title: Type.String(),
  excerpts: Type.Array(Type.String()),
});
export type TaskCitation = Static<typeof TaskCitationSchema>;

/** Why an output field holds its value: the pages that say so, the reasoning, and how sure. */
export const TaskFieldBasisSchema = Type.Object(
  {
    field: Type.String(),
    citations: Type.Array(TaskCitationSchema),
    reasoning: Type.String(),
    confidence: Confidence,
  },
  { $id: 'TaskFieldBasis' },
);
export type TaskFieldBasis = Static<typeof TaskFieldBasisSchema>;

/** The spec's usage counters of a task run. */
export const TaskUsageSchema = Type.Object(
  {
    tool_calls: Type.Integer(),
    search_queries: Type.Integer(),
    pages_fetched: Type.Integer(),
    tokens: TokenCounts,
    planner_calls: Type.Integer(),
    grader_calls: Type.Integer(),
    synth_calls: Type.Integer(),
    scratchpad_mode: Nullable(Type.String()),
    scratchpad_chunks_indexed: Type.Integer(),
    scratchpad_chunks_used: Type.Integer(),
    scratchpad_searches: Type.Integer(),
    scratchpad_tool_turns: Type.Integer(),
  },
  { $id: 'TaskUsage' },
);
export type TaskUsage = Static<typeof TaskUsageSchema>;

export interface TaskOutput {
  output: unknown;
  basis: TaskFieldBasis[];
  answer: string;
  sources: string[];
  read: string[];
  considered: string[];
  usage: TaskUsage;
  /** Steps taken: the run is charged one credit each. */
  steps: number;
  report: string | null;
  findings: Finding[] | null;
  sources_detailed: Source[] | null;
}

export type TaskOutputWritten = DomainEvent<'TaskOutputWritten', TaskOutput>;

export type TaskRunProgressEvent = ResearchEvent | TaskOutputWritten;
export type TaskRunProgressCommand = ResearchCommand | ({ type: 'RecordOutput'; worker_id: string } & TaskOutput);

export interface TaskRunProgress extends ResearchProgress {
  output: TaskOutput | null;
}

export type TaskRunEvent = LifecycleEvent<'TaskRun', 'task_id', TaskParams> | TaskRunProgressEvent;

export const TASK_RUN_STREAM_PREFIX = 'task-';
