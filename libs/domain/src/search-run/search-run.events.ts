import type { DomainEvent } from '../decider';
import type { SkuLineItem } from '../charge/charge.events';

/**
 * Events of a `search-<id>` stream: a deep search run, from request to its end. Progress events
 * are facts the worker records as it goes; each carries enough to rebuild the run view and to
 * resume after a crash (a repeated fact decides nothing, so a resumed pipeline appends only what
 * is new).
 */
export interface DeepSearchParams {
  queries: string[];
  prompt: string | null;
  objective: string | null;
  limit: number;
  country: string;
  language: string;
  max_subqueries: number;
  max_fetches: number;
  webhook: string | null;
}

export interface RunResult {
  url: string;
  title: string;
  snippet: string;
  date: string | null;
  domain: string;
  score: number;
}

export interface Finding {
  subquery: string;
  answer: string;
  /** Indexes into `sources` (1-based, as cited in the report). */
  citations: number[];
  confidence: 'high' | 'medium' | 'low';
  evidence: { source: number; quote: string }[];
}

export interface Source {
  index: number;
  url: string;
  title: string;
  domain: string;
  fetched: boolean;
  quality: 'high' | 'medium' | 'low';
  first_seen_subquery: string;
}

export interface RunUsage {
  planner_calls: number;
  grader_calls: number;
  synth_calls: number;
  search_queries: number;
  pages_fetched: number;
  tokens: { input: number; output: number };
}

export type SearchRunRequested = DomainEvent<
  'SearchRunRequested',
  { search_id: string; team_id: string; key_id: string; request_id: string; params: DeepSearchParams; requested_at: string }
>;
/** A worker took the run (first start, or a takeover after the previous worker's lease ran out). */
export type SearchRunStarted = DomainEvent<'SearchRunStarted', { worker_id: string; lease_until: string; started_at: string; resumed: boolean }>;
/** Internal: the worker is alive; no public stream name. */
export type SearchRunHeartbeat = DomainEvent<'SearchRunHeartbeat', { worker_id: string; lease_until: string }>;
export type SubqueriesPlanned = DomainEvent<'SubqueriesPlanned', { subqueries: string[]; pages_target: number }>;
export type SerpPageFetched = DomainEvent<'SerpPageFetched', { subquery: string; page: number; hits: number }>;
export type PageFetched = DomainEvent<'PageFetched', { url: string; ok: boolean; title: string | null; error: string | null }>;
export type FindingGraded = DomainEvent<'FindingGraded', { finding: Finding }>;
/** The merged, de-duplicated results so far (the whole list, replacing the previous one). */
export type ResultsMerged = DomainEvent<'ResultsMerged', { results: RunResult[]; reranked: boolean }>;
export type ReportWritten = DomainEvent<'ReportWritten', { report: string; findings: Finding[]; sources: Source[]; usage: RunUsage }>;
/** Credits are charged in the run's own stream, on completion only (one per query). */
export type SearchRunCharged = DomainEvent<
  'CreditsCharged',
  { team_id: string; request_id: string; items: SkuLineItem[]; credits: number; at: string }
>;
export type SearchRunCompleted = DomainEvent<'SearchRunCompleted', { completed_at: string }>;
export type SearchRunFailed = DomainEvent<'SearchRunFailed', { error: string; failed_at: string }>;
export type SearchRunCancelRequested = DomainEvent<'SearchRunCancelRequested', { requested_at: string }>;
export type SearchRunCancelled = DomainEvent<'SearchRunCancelled', { cancelled_at: string }>;

export type SearchRunEvent =
  | SearchRunRequested
  | SearchRunStarted
  | SearchRunHeartbeat
  | SubqueriesPlanned
  | SerpPageFetched
  | PageFetched
  | FindingGraded
  | ResultsMerged
  | ReportWritten
  | SearchRunCharged
  | SearchRunCompleted
  | SearchRunFailed
  | SearchRunCancelRequested
  | SearchRunCancelled;

export const searchRunStream = (searchId: string): string => `search-${searchId}`;

/** Stored event type -> public stream event name (API.md "Streams"); absent = not sent. */
export const PUBLIC_EVENT_NAMES: Partial<Record<SearchRunEvent['type'], string>> = {
  SearchRunRequested: 'run.queued',
  SearchRunStarted: 'run.started',
  SubqueriesPlanned: 'plan.created',
  SerpPageFetched: 'serp.page',
  PageFetched: 'page.fetched',
  FindingGraded: 'finding.graded',
  ResultsMerged: 'results.updated',
  SearchRunCompleted: 'run.completed',
  SearchRunFailed: 'run.failed',
  SearchRunCancelled: 'run.cancelled',
};
