/**
 * A deep search run as its specs give it: times, parameters and results, every event a run
 * records, the commands that record them, and the event lists of each state a run can be in.
 */
import type { SearchRunCommand } from '../search-run/search-run.decider';
import type {
  DeepSearchParams,
  Finding,
  RunResult,
  RunUsage,
  SearchRunEvent,
  Source,
} from '../search-run/search-run.events';

export const T0 = '2026-01-01T00:00:00.000Z';
export const LEASE_END = '2026-01-01T00:00:15.000Z';
export const T_CANCEL = '2026-01-01T00:00:05.000Z';
export const T_END = '2026-01-01T00:00:09.000Z';

export const params: DeepSearchParams = {
  queries: ['solar storage', 'grid batteries'],
  prompt: null,
  objective: null,
  limit: 10,
  country: 'us',
  language: 'en',
  max_subqueries: 8,
  max_fetches: 18,
  webhook: null,
};
export const finding: Finding = {
  subquery: 'q1',
  answer: 'A [1]',
  citations: [1],
  confidence: 'high',
  evidence: [{ source: 1, quote: 'a' }],
};
export const source: Source = {
  index: 1,
  url: 'https://a.example/x',
  title: 'A',
  domain: 'a.example',
  fetched: true,
  quality: 'high',
  first_seen_subquery: 'q1',
};
export const usage: RunUsage = {
  planner_calls: 1,
  grader_calls: 2,
  synth_calls: 1,
  search_queries: 4,
  pages_fetched: 3,
  tokens: { input: 10, output: 5 },
};
export const hit = (url: string, score = 1): RunResult => ({
  url,
  title: 't',
  snippet: 's',
  date: null,
  domain: 'a.example',
  score,
});

// Events
export const requested: SearchRunEvent = {
  type: 'SearchRunRequested',
  data: { search_id: 's1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params, requested_at: T0 },
};
export const started: SearchRunEvent = {
  type: 'SearchRunStarted',
  data: { worker_id: 'w1', lease_until: LEASE_END, started_at: T0, resumed: false },
};
export const takenOver: SearchRunEvent = {
  type: 'SearchRunStarted',
  data: { worker_id: 'w2', lease_until: '2026-01-01T00:00:30.000Z', started_at: LEASE_END, resumed: true },
};
export const planned: SearchRunEvent = {
  type: 'SubqueriesPlanned',
  data: { subqueries: ['q1', 'q2'], pages_target: 4 },
};
export const serp: SearchRunEvent = { type: 'SerpPageFetched', data: { subquery: 'q1', page: 1, hits: 10 } };
export const pageOk: SearchRunEvent = {
  type: 'PageFetched',
  data: { url: 'https://a.example/x', ok: true, title: 'A', error: null },
};
export const pageFailed: SearchRunEvent = {
  type: 'PageFetched',
  data: { url: 'https://a.example/x', ok: false, title: null, error: 'timeout' },
};
export const graded: SearchRunEvent = { type: 'FindingGraded', data: { finding } };
export const merged: SearchRunEvent = {
  type: 'ResultsMerged',
  data: { results: [hit('https://a.example/x')], reranked: false },
};
export const reported: SearchRunEvent = {
  type: 'ReportWritten',
  data: { report: '# R [1]', findings: [finding], sources: [source], usage },
};
export const charged: SearchRunEvent = {
  type: 'CreditsCharged',
  data: {
    team_id: 'acme',
    request_id: 's1',
    items: [{ sku: 'sku_deep_search', quantity: 2, credits: 2 }],
    credits: 2,
    at: T0,
  },
};
export const completed: SearchRunEvent = { type: 'SearchRunCompleted', data: { completed_at: T0 } };
export const failed: SearchRunEvent = { type: 'SearchRunFailed', data: { error: 'boom', failed_at: T0 } };
export const cancelRequested: SearchRunEvent = { type: 'SearchRunCancelRequested', data: { requested_at: T0 } };
export const cancelled: SearchRunEvent = { type: 'SearchRunCancelled', data: { cancelled_at: T0 } };

// Commands
export const request: SearchRunCommand = {
  type: 'RequestRun',
  run_id: 's1',
  team_id: 'acme',
  key_id: 'k1',
  request_id: 'r1',
  params,
};
export const start = (worker_id = 'w1'): SearchRunCommand => ({ type: 'StartRun', worker_id, lease_seconds: 15 });
export const heartbeat = (worker_id = 'w1'): SearchRunCommand => ({ type: 'Heartbeat', worker_id, lease_seconds: 15 });
export const complete = (worker_id = 'w1'): SearchRunCommand => ({ type: 'CompleteRun', worker_id });
export const fail = (worker_id?: string): SearchRunCommand => ({ type: 'FailRun', worker_id, error: 'boom' });
export const cancel: SearchRunCommand = { type: 'CancelRun' };
export const confirm = (worker_id?: string): SearchRunCommand => ({ type: 'ConfirmCancelled', worker_id });
/** Each progress command with the event it records. */
export const progress = (worker_id = 'w1'): [string, SearchRunCommand, SearchRunEvent][] => [
  ['RecordPlan', { type: 'RecordPlan', worker_id, subqueries: ['q1', 'q2'], pages_target: 4 }, planned],
  ['RecordSerpPage', { type: 'RecordSerpPage', worker_id, subquery: 'q1', page: 1, hits: 10 }, serp],
  [
    'RecordPageFetched',
    { type: 'RecordPageFetched', worker_id, url: 'https://a.example/x', ok: true, title: 'A', error: null },
    pageOk,
  ],
  ['RecordFinding', { type: 'RecordFinding', worker_id, finding }, graded],
  [
    'RecordResults',
    { type: 'RecordResults', worker_id, results: [hit('https://a.example/x')], reranked: false },
    merged,
  ],
  [
    'RecordReport',
    { type: 'RecordReport', worker_id, report: '# R [1]', findings: [finding], sources: [source], usage },
    reported,
  ],
];
export const record = (name: string, worker_id = 'w1'): SearchRunCommand =>
  progress(worker_id).find(([n]) => n === name)![1];
export const allButRequest: [string, SearchRunCommand][] = [
  ['StartRun', start()],
  ['Heartbeat', heartbeat()],
  ...progress().map(([name, command]): [string, SearchRunCommand] => [name, command]),
  ['CompleteRun', complete()],
  ['FailRun', fail()],
  ['CancelRun', cancel],
  ['ConfirmCancelled', confirm('w1')],
];

export const QUEUED = [requested];
export const RUNNING = [requested, started];
export const CANCELLING = [requested, started, cancelRequested];
export const COMPLETED = [requested, started, reported, charged, completed];
export const FAILED = [requested, started, failed];
export const CANCELLED = [requested, started, cancelRequested, cancelled];
