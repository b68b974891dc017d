import type { DomainEvent } from '../decider';
import type {
  ResearchCommand,
  ResearchEvent,
  ResearchProgress,
  Finding,
  RunUsage,
  Source,
} from '../run/research-progress';
import type { LifecycleEvent } from '../run/run.events';
import type { FollowUpContext } from '../run/follow-up-context';

export type { Finding, RunResult, RunUsage, Source } from '../run/research-progress';

/**
 * Events of a `search-<id>` stream: a deep search run, from request to its end. The lifecycle is
 * the shared run lifecycle (`SearchRun*`); progress is the research pipeline's facts plus the
 * written report. Each fact carries enough to rebuild the run view and to resume after a crash.
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
  /** Filters and shaping of POST /v1/search, applied in the run (absent on runs requested before they were). */
  category?: string | null;
  freshness?: 'hour' | 'day' | 'week' | 'month' | 'year' | null;
  include_domains?: string[] | null;
  exclude_domains?: string[] | null;
  max_excerpt_chars?: number | null;
  advanced_settings?: DeepAdvancedSettings | null;
  /** The run's own budget in credits (API.md "Budgets"): it never charges past it; absent or null: none. */
  max_credits?: number | null;
  /** The interaction this run follows (API.md "Follow-ups"), as the gateway found it; absent: none. */
  follows?: FollowUpContext | null;
}

export interface DeepAdvancedSettings {
  source_policy?: {
    include_domains?: string[] | null;
    exclude_domains?: string[] | null;
    after_date?: string | null;
    before_date?: string | null;
  } | null;
  excerpts?: { max_chars_per_result?: number | null } | null;
  contents?: {
    text?: boolean | null;
    highlights?: boolean | null;
    summary?: boolean | null;
    max_chars?: number | null;
  } | null;
}

export type ReportWritten = DomainEvent<
  'ReportWritten',
  { report: string; findings: Finding[]; sources: Source[]; usage: RunUsage }
>;

export type SearchRunProgressEvent = ResearchEvent | ReportWritten;
export type SearchRunProgressCommand =
  | ResearchCommand
  | {
      type: 'RecordReport';
      worker_id: string;
      report: string;
      findings: Finding[];
      sources: Source[];
      usage: RunUsage;
    };

export interface SearchRunProgress extends ResearchProgress {
  report: ReportWritten['data'] | null;
}

export type SearchRunEvent = LifecycleEvent<'SearchRun', 'search_id', DeepSearchParams> | SearchRunProgressEvent;

export const SEARCH_RUN_STREAM_PREFIX = 'search-';
