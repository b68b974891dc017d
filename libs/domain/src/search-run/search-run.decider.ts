import type { SkuLineItem } from '../charge/charge.events';
import { DomainError, type DecideContext, type Decider } from '../decider';
import type {
  DeepSearchParams,
  Finding,
  ReportWritten,
  RunResult,
  RunUsage,
  SearchRunEvent,
  Source,
} from './search-run.events';

export const DEEP_SEARCH_SKU = 'sku_deep_search';

/** A deep run costs one credit per query, charged on completion (API.md "Credits"). */
export const deepSearchItems = (params: Pick<DeepSearchParams, 'queries'>): SkuLineItem[] => [
  { sku: DEEP_SEARCH_SKU, quantity: params.queries.length, credits: params.queries.length },
];

/**
 * What a run has gathered, kept in every status so the public view can be read from the state
 * alone (the read-model projection reuses `evolve`). Arrays and plain objects only: the state is
 * stored as a document.
 */
export interface SearchRunRecord {
  search_id: string;
  team_id: string;
  key_id: string;
  request_id: string;
  params: DeepSearchParams;
  requested_at: string;
  plan: { subqueries: string[]; pages_target: number } | null;
  /** Distinct (subquery, page) SERP pages. */
  serp_pages: { subquery: string; page: number; hits: number }[];
  /** Latest outcome per URL. */
  fetched: { url: string; ok: boolean; title: string | null; error: string | null }[];
  /** One per sub-query, as graded. */
  graded: Finding[];
  results: RunResult[];
  reranked: boolean;
  report: ReportWritten['data'] | null;
  /** The cancelRequested flag (with its time): set once the caller asked to cancel. */
  cancel_requested_at: string | null;
}

export type SearchRunState =
  | { status: 'absent' }
  | (SearchRunRecord & { status: 'queued' })
  | (SearchRunRecord & { status: 'running'; worker_id: string; lease_until: string })
  | (SearchRunRecord & { status: 'completed'; completed_at: string })
  | (SearchRunRecord & { status: 'failed'; error: string; failed_at: string })
  | (SearchRunRecord & { status: 'cancelled'; cancelled_at: string });

type Running = Extract<SearchRunState, { status: 'running' }>;
type Existing = Exclude<SearchRunState, { status: 'absent' }>;

export type SearchRunCommand =
  | { type: 'RequestSearchRun'; search_id: string; team_id: string; key_id: string; request_id: string; params: DeepSearchParams }
  | { type: 'StartSearchRun'; worker_id: string; lease_seconds: number }
  | { type: 'Heartbeat'; worker_id: string; lease_seconds: number }
  | { type: 'RecordPlan'; worker_id: string; subqueries: string[]; pages_target: number }
  | { type: 'RecordSerpPage'; worker_id: string; subquery: string; page: number; hits: number }
  | { type: 'RecordPageFetched'; worker_id: string; url: string; ok: boolean; title: string | null; error: string | null }
  | { type: 'RecordFinding'; worker_id: string; finding: Finding }
  | { type: 'RecordResults'; worker_id: string; results: RunResult[]; reranked: boolean }
  | { type: 'RecordReport'; worker_id: string; report: string; findings: Finding[]; sources: Source[]; usage: RunUsage }
  | { type: 'CompleteSearchRun'; worker_id: string }
  /** No worker_id: the system (lease recovery) fails it. */
  | { type: 'FailSearchRun'; worker_id?: string; error: string }
  | { type: 'CancelSearchRun' }
  /** No worker_id: lease recovery confirms for a worker that died. */
  | { type: 'ConfirmCancelled'; worker_id?: string };

type Cmd<T extends SearchRunCommand['type']> = Extract<SearchRunCommand, { type: T }>;

const TERMINAL = ['completed', 'failed', 'cancelled'] as const;
const isTerminal = (state: Existing) => (TERMINAL as readonly string[]).includes(state.status);

const mustExist = (state: SearchRunState): Existing => {
  if (state.status === 'absent') throw new DomainError(404, 'search run does not exist');
  return state;
};

const heldBy = (run: Running) => new DomainError(409, `run is held by worker ${run.worker_id} until ${run.lease_until}`);

const leaseExpired = (run: Running, now: string) => Date.parse(now) >= Date.parse(run.lease_until);

const leaseUntil = (now: string, seconds: number) => {
  if (!(seconds > 0)) throw new DomainError(422, 'lease_seconds must be positive');
  return new Date(Date.parse(now) + seconds * 1000).toISOString();
};

/**
 * Progress is recorded only by the worker holding the lease of a running run. The recorded holder
 * keeps it past lease_until until someone takes over: a slow worker is not wasted. Once cancel is
 * requested progress is refused, so "work stops at once" holds and the kept results are final.
 */
const mustHold = (state: SearchRunState, workerId: string): Running => {
  const run = mustExist(state);
  if (run.status === 'queued') throw new DomainError(409, 'run is not started');
  if (run.status !== 'running') throw new DomainError(409, `run is ${run.status}`);
  if (run.cancel_requested_at !== null) throw new DomainError(409, 'run is cancelled');
  if (run.worker_id !== workerId) throw heldBy(run);
  return run;
};

/** Ending a running run: its holder, or anyone (another worker, the system) once the lease ran out. */
const mayEnd = (run: Running, workerId: string | undefined, now: string) => {
  if (run.worker_id !== workerId && !leaseExpired(run, now)) throw heldBy(run);
};

const LIMITS: [keyof DeepSearchParams, (p: DeepSearchParams) => number, number, number][] = [
  ['queries', (p) => p.queries.length, 1, 5],
  ['limit', (p) => p.limit, 1, 100],
  ['max_subqueries', (p) => p.max_subqueries, 1, 12],
  ['max_fetches', (p) => p.max_fetches, 1, 30],
];

const requestSearchRun = (command: Cmd<'RequestSearchRun'>, state: SearchRunState, { now }: DecideContext): SearchRunEvent[] => {
  if (state.status !== 'absent') {
    if (state.search_id === command.search_id) return [];
    throw new DomainError(409, `stream holds search ${state.search_id}, not ${command.search_id}`);
  }
  // Invariants the run relies on (credits are one per query); the gateway reports field errors.
  for (const [field, measure, min, max] of LIMITS) {
    const value = measure(command.params);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new DomainError(422, `${field} must be ${min} to ${max}`);
    }
  }
  const { type: _type, ...data } = command;
  return [{ type: 'SearchRunRequested', data: { ...data, requested_at: now } }];
};

const startSearchRun = (command: Cmd<'StartSearchRun'>, state: SearchRunState, { now }: DecideContext): SearchRunEvent[] => {
  const run = mustExist(state);
  const lease_until = leaseUntil(now, command.lease_seconds);
  const started = (resumed: boolean): SearchRunEvent[] => [
    { type: 'SearchRunStarted', data: { worker_id: command.worker_id, lease_until, started_at: now, resumed } },
  ];
  if (run.status === 'queued') return started(false);
  if (run.status !== 'running') throw new DomainError(409, `run is ${run.status}`);
  // A cancel-requested run is not worked again: whoever finds it confirms the cancel instead.
  if (run.cancel_requested_at !== null) throw new DomainError(409, 'run is cancelled: confirm it instead');
  if (run.worker_id === command.worker_id) return [];
  if (!leaseExpired(run, now)) throw heldBy(run);
  return started(true);
};

const heartbeat = (command: Cmd<'Heartbeat'>, state: SearchRunState, { now }: DecideContext): SearchRunEvent[] => {
  const run = mustExist(state);
  // A late heartbeat after the end is harmless; the worker learns of the end elsewhere.
  if (isTerminal(run)) return [];
  if (run.status !== 'running') throw new DomainError(409, 'run is not started');
  if (run.worker_id !== command.worker_id) throw heldBy(run);
  return [{ type: 'SearchRunHeartbeat', data: { worker_id: command.worker_id, lease_until: leaseUntil(now, command.lease_seconds) } }];
};

// Each Record* is idempotent so a resumed (taken-over) pipeline appends only what is new.

const recordPlan = (command: Cmd<'RecordPlan'>, state: SearchRunState): SearchRunEvent[] => {
  // The first plan wins: a re-planning after takeover may differ, and pages already count against it.
  if (mustHold(state, command.worker_id).plan) return [];
  return [{ type: 'SubqueriesPlanned', data: { subqueries: command.subqueries, pages_target: command.pages_target } }];
};

const recordSerpPage = (command: Cmd<'RecordSerpPage'>, state: SearchRunState): SearchRunEvent[] => {
  const run = mustHold(state, command.worker_id);
  if (run.serp_pages.some((p) => p.subquery === command.subquery && p.page === command.page)) return [];
  return [{ type: 'SerpPageFetched', data: { subquery: command.subquery, page: command.page, hits: command.hits } }];
};

const recordPageFetched = (command: Cmd<'RecordPageFetched'>, state: SearchRunState): SearchRunEvent[] => {
  const run = mustHold(state, command.worker_id);
  const known = run.fetched.find((p) => p.url === command.url);
  // An ok fetch is final; a failure is repeated as nothing new, but a retry may still succeed.
  if (known && (known.ok || !command.ok)) return [];
  return [{ type: 'PageFetched', data: { url: command.url, ok: command.ok, title: command.title, error: command.error } }];
};

const recordFinding = (command: Cmd<'RecordFinding'>, state: SearchRunState): SearchRunEvent[] => {
  const run = mustHold(state, command.worker_id);
  if (run.graded.some((f) => f.subquery === command.finding.subquery)) return [];
  return [{ type: 'FindingGraded', data: { finding: command.finding } }];
};

const sameResult = (a: RunResult, b: RunResult) =>
  a.url === b.url && a.title === b.title && a.snippet === b.snippet && a.date === b.date && a.domain === b.domain && a.score === b.score;

const recordResults = (command: Cmd<'RecordResults'>, state: SearchRunState): SearchRunEvent[] => {
  const run = mustHold(state, command.worker_id);
  const unchanged =
    run.reranked === command.reranked &&
    run.results.length === command.results.length &&
    run.results.every((r, i) => sameResult(r, command.results[i]!));
  if (unchanged) return [];
  return [{ type: 'ResultsMerged', data: { results: command.results, reranked: command.reranked } }];
};

const recordReport = (command: Cmd<'RecordReport'>, state: SearchRunState): SearchRunEvent[] => {
  if (mustHold(state, command.worker_id).report) return [];
  const { report, findings, sources, usage } = command;
  return [{ type: 'ReportWritten', data: { report, findings, sources, usage } }];
};

const completeSearchRun = (command: Cmd<'CompleteSearchRun'>, state: SearchRunState, { now }: DecideContext): SearchRunEvent[] => {
  if (state.status === 'completed') return [];
  const run = mustHold(state, command.worker_id);
  if (!run.report) throw new DomainError(409, 'no report yet');
  const items = deepSearchItems(run.params);
  return [
    { type: 'CreditsCharged', data: { team_id: run.team_id, request_id: run.search_id, items, credits: items[0]!.credits, at: now } },
    { type: 'SearchRunCompleted', data: { completed_at: now } },
  ];
};

const failSearchRun = (command: Cmd<'FailSearchRun'>, state: SearchRunState, { now }: DecideContext): SearchRunEvent[] => {
  const run = mustExist(state);
  if (isTerminal(run)) return [];
  if (run.status === 'running') {
    mayEnd(run, command.worker_id, now);
    // The caller already saw it cancelled: a worker failing while it winds down ends it cancelled.
    if (run.cancel_requested_at !== null) return [{ type: 'SearchRunCancelled', data: { cancelled_at: now } }];
  }
  return [{ type: 'SearchRunFailed', data: { error: command.error, failed_at: now } }];
};

const cancelSearchRun = (_command: Cmd<'CancelSearchRun'>, state: SearchRunState, { now }: DecideContext): SearchRunEvent[] => {
  const run = mustExist(state);
  if (run.status === 'completed' || run.status === 'failed') {
    throw new DomainError(409, `cannot cancel a ${run.status} run`);
  }
  if (run.status === 'cancelled' || run.cancel_requested_at !== null) return [];
  const requested: SearchRunEvent = { type: 'SearchRunCancelRequested', data: { requested_at: now } };
  // Nobody works a queued run, so nobody is left to confirm: it ends at once.
  if (run.status === 'queued') return [requested, { type: 'SearchRunCancelled', data: { cancelled_at: now } }];
  return [requested];
};

const confirmCancelled = (command: Cmd<'ConfirmCancelled'>, state: SearchRunState, { now }: DecideContext): SearchRunEvent[] => {
  const run = mustExist(state);
  if (run.status !== 'running' || run.cancel_requested_at === null) return [];
  mayEnd(run, command.worker_id, now);
  return [{ type: 'SearchRunCancelled', data: { cancelled_at: now } }];
};

const record = (state: Existing, patch: Partial<SearchRunRecord>): SearchRunState => ({ ...state, ...patch });

const evolve = (state: SearchRunState, event: SearchRunEvent): SearchRunState => {
  if (event.type === 'SearchRunRequested') {
    if (state.status !== 'absent') return state;
    const { search_id, team_id, key_id, request_id, params, requested_at } = event.data;
    return {
      status: 'queued',
      search_id,
      team_id,
      key_id,
      request_id,
      params,
      requested_at,
      plan: null,
      serp_pages: [],
      fetched: [],
      graded: [],
      results: [],
      reranked: false,
      report: null,
      cancel_requested_at: null,
    };
  }
  if (state.status === 'absent') return state;
  const open = state.status === 'queued' || state.status === 'running';
  switch (event.type) {
    case 'SearchRunStarted':
      return open ? { ...state, status: 'running', worker_id: event.data.worker_id, lease_until: event.data.lease_until } : state;
    case 'SearchRunHeartbeat':
      return state.status === 'running' && state.worker_id === event.data.worker_id
        ? { ...state, lease_until: event.data.lease_until }
        : state;
    case 'SubqueriesPlanned':
      return state.plan ? state : record(state, { plan: event.data });
    case 'SerpPageFetched': {
      const { subquery, page } = event.data;
      return state.serp_pages.some((p) => p.subquery === subquery && p.page === page)
        ? state
        : record(state, { serp_pages: [...state.serp_pages, event.data] });
    }
    case 'PageFetched':
      return record(state, { fetched: [...state.fetched.filter((p) => p.url !== event.data.url), event.data] });
    case 'FindingGraded':
      return state.graded.some((f) => f.subquery === event.data.finding.subquery)
        ? state
        : record(state, { graded: [...state.graded, event.data.finding] });
    case 'ResultsMerged':
      return record(state, { results: event.data.results, reranked: event.data.reranked });
    case 'ReportWritten':
      return state.report ? state : record(state, { report: event.data });
    case 'CreditsCharged':
      // Billing's fact; the view derives credits from completion (one per query), so projections
      // that do not subscribe to charges still show them.
      return state;
    case 'SearchRunCompleted':
      return open ? { ...strip(state), status: 'completed', completed_at: event.data.completed_at } : state;
    case 'SearchRunFailed':
      return open ? { ...strip(state), status: 'failed', error: event.data.error, failed_at: event.data.failed_at } : state;
    case 'SearchRunCancelRequested':
      return open && state.cancel_requested_at === null ? record(state, { cancel_requested_at: event.data.requested_at }) : state;
    case 'SearchRunCancelled':
      return open ? { ...strip(state), status: 'cancelled', cancelled_at: event.data.cancelled_at } : state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

/** Drops the lease fields when a run ends, so each status carries only its own fields. */
const strip = (state: Existing): SearchRunRecord => {
  const { status: _s, ...rest } = state;
  if ('worker_id' in rest) {
    const { worker_id: _w, lease_until: _l, ...record } = rest;
    return record;
  }
  return rest;
};

export const searchRunDecider: Decider<SearchRunCommand, SearchRunEvent, SearchRunState> = {
  initialState: { status: 'absent' },
  decide(command, state, context) {
    switch (command.type) {
      case 'RequestSearchRun':
        return requestSearchRun(command, state, context);
      case 'StartSearchRun':
        return startSearchRun(command, state, context);
      case 'Heartbeat':
        return heartbeat(command, state, context);
      case 'RecordPlan':
        return recordPlan(command, state);
      case 'RecordSerpPage':
        return recordSerpPage(command, state);
      case 'RecordPageFetched':
        return recordPageFetched(command, state);
      case 'RecordFinding':
        return recordFinding(command, state);
      case 'RecordResults':
        return recordResults(command, state);
      case 'RecordReport':
        return recordReport(command, state);
      case 'CompleteSearchRun':
        return completeSearchRun(command, state, context);
      case 'FailSearchRun':
        return failSearchRun(command, state, context);
      case 'CancelSearchRun':
        return cancelSearchRun(command, state, context);
      case 'ConfirmCancelled':
        return confirmCancelled(command, state, context);
      default: {
        const unreachable: never = command;
        throw new Error(`unknown command ${(unreachable as { type: string }).type}`);
      }
    }
  },
  evolve,
};
