import { fold, NotFound } from '../decider';
import type { SkuLineItem } from '../charge/charge.events';
import { totalCredits } from '../pricing';
import { publicStatus, runEndedAt } from '../run/run.decider';
import type { RunStatus } from '../run/run.events';
import { searchRunDecider, type SearchRunState } from './search-run.decider';
import type { Finding, RunResult, RunUsage, SearchRunEvent, Source } from './search-run.events';

export type SearchRunStatus = RunStatus;

/** The public search run (spec "Search run", API.md "Run views"). */
export interface SearchRunView {
  search_id: string;
  status: SearchRunStatus;
  queries: string[];
  limit: number;
  depth: 'deep';
  country: string;
  language: string;
  createdAt: string;
  completedAt: string | null;
  credits: number;
  results: RunResult[];
  pagesFetched: number;
  pagesTarget: number;
  error: string | null;
  report: string | null;
  findings: Finding[] | null;
  sources: Source[] | null;
  usage: RunUsage | null;
  prompt: string | null;
  reranked: boolean;
  usage_items: SkuLineItem[];
}

/** Spec "Search run list item". */
export interface SearchRunListItem {
  id: string;
  query: string;
  status: SearchRunStatus;
  createdAt: string;
  completedAt: string | null;
  resultCount: number;
}

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
