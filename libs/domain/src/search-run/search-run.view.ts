import { fold, NotFound } from '../decider';
import { SkuLineItemSchema } from '../charge/charge.events';
import { totalCredits } from '../pricing';
import { publicStatus, runEndedAt } from '../run/run.decider';
import { terminationOf } from '../run/run-budget';
import { RUN_STATUSES, type RunStatus } from '../run/run.events';
import { FindingSchema, RunResultSchema, RunUsageSchema, SourceSchema } from '../run/research-progress';
import { Nullable, type Static, StringEnum, Type } from '../schema';
import { searchRunDecider, type SearchRunState } from './search-run.decider';
import type { SearchRunEvent } from './search-run.events';

export type SearchRunStatus = RunStatus;

/**
 * The public search run (spec "Search run", API.md "Run views"): the schema is its one
 * declaration. Its OpenAPI component keeps the name the document has always given it.
 */
export const SearchRunViewSchema = Type.Object(
  {
    search_id: Type.String(),
    status: StringEnum(RUN_STATUSES),
    interaction_id: Type.String({
      description: 'Pass it as previous_interaction_id to a task or deep search that follows this one',
    }),
    previous_interaction_id: Nullable(Type.String({ description: 'The interaction this run followed' })),
    queries: Type.Array(Type.String()),
    limit: Type.Number(),
    depth: StringEnum(['deep']),
    country: Type.String({ default: 'us' }),
    language: Type.String({ default: 'en' }),
    createdAt: Type.String(),
    completedAt: Nullable(Type.String()),
    credits: Type.Number({ description: 'One per query, on completion' }),
    results: Type.Array(RunResultSchema),
    pagesFetched: Type.Number(),
    pagesTarget: Type.Number(),
    termination_reason: Nullable(
      StringEnum(['budget_exhausted'], {
        description: 'budget_exhausted: the run stopped at its max_credits with what it had; null otherwise',
      }),
    ),
    error: Nullable(Type.String()),
    report: Nullable(Type.String({ description: 'Markdown with [N] citations' })),
    findings: Nullable(Type.Array(FindingSchema)),
    sources: Nullable(Type.Array(SourceSchema)),
    usage: Nullable(RunUsageSchema),
    prompt: Nullable(Type.String()),
    reranked: Type.Boolean(),
    usage_items: Type.Array(SkuLineItemSchema),
  },
  { $id: 'SearchRunViewDto' },
);
export type SearchRunView = Static<typeof SearchRunViewSchema>;

/** Spec "Search run list item". */
export const SearchRunListItemSchema = Type.Object(
  {
    id: Type.String(),
    query: Type.String(),
    status: StringEnum(RUN_STATUSES),
    createdAt: Type.String(),
    completedAt: Nullable(Type.String()),
    resultCount: Type.Integer(),
  },
  { $id: 'SearchRunListItem' },
);
export type SearchRunListItem = Static<typeof SearchRunListItemSchema>;

const stateOf = (input: SearchRunState | readonly SearchRunEvent[]): SearchRunState =>
  'status' in input ? input : fold(searchRunDecider, input);

/**
 * The run view from the decider's state (or its events). A run that does not exist is a 404, so
 * callers (retrieve, streams, webhooks) get a view or the refusal they answer with.
 * A run whose cancel was requested already reads `cancelled`: the caller is told work stops at
 * once, and the decider refuses any further progress, so what it shows is final.
 */
export const searchRunView = (input: SearchRunState | readonly SearchRunEvent[]): SearchRunView => {
  const state = stateOf(input);
  if (state.status === 'absent') throw new NotFound('search run does not exist');
  const { params, progress } = state;
  const { report } = progress;
  const completed = state.status === 'completed';
  return {
    search_id: state.run_id,
    status: publicStatus(state),
    interaction_id: state.run_id,
    previous_interaction_id: params.follows?.interaction_id ?? null,
    queries: params.queries,
    limit: params.limit,
    depth: 'deep',
    country: params.country,
    language: params.language,
    createdAt: state.requested_at,
    completedAt: runEndedAt(state),
    credits: totalCredits(state.charged),
    results: progress.results,
    pagesFetched: progress.serp_pages.length,
    pagesTarget: progress.plan?.pages_target ?? 1,
    termination_reason: terminationOf(state),
    error: state.status === 'failed' ? state.error : null,
    report: completed && report ? report.report : null,
    findings: completed && report ? report.findings : null,
    sources: completed && report ? report.sources : null,
    // The counters are known once the report is written (they describe the work done so far).
    usage: report?.usage ?? null,
    prompt: params.prompt,
    reranked: progress.reranked,
    usage_items: state.charged,
  };
};

export const searchRunListItem = (input: SearchRunState | readonly SearchRunEvent[]): SearchRunListItem => {
  const view = searchRunView(input);
  return {
    id: view.search_id,
    query: view.prompt ?? view.queries.join('; '),
    status: view.status,
    createdAt: view.createdAt,
    completedAt: view.completedAt,
    resultCount: view.results.length,
  };
};
