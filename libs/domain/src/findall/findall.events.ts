import type { DomainEvent } from '../decider';
import type { LifecycleEvent } from '../run/run.events';

/**
 * Events of a `findall-<id>` stream: an entity discovery run (spec "FindAll run"). The lifecycle
 * is the shared one (`FindAllRun*`, reopened by extend and enrich); progress is the derived
 * schema, generated queries, list pages read, candidates found and checked, enrichment and the
 * termination reason. Charges accrue as the work happens.
 */
export interface FindAllParams {
  query: string;
  fields: string[] | null;
  output_schema: Record<string, unknown> | null;
  limit: number;
  webhook: string | null;
}

export type ConditionKind =
  'keyword' | 'place' | 'year_after' | 'year_before' | 'year_in' | 'count_more' | 'count_less';

export interface FindAllCondition {
  /** In words, as shown to the caller: "founded after 2015". */
  name: string;
  kind: ConditionKind;
  value: string | number;
}

export interface FindAllSchema {
  objective: string;
  entity_type: string;
  conditions: FindAllCondition[];
  generator: { queries: string[] };
}

export interface ConditionReason {
  condition: string;
  holds: boolean;
  evidence_url: string | null;
  excerpt: string | null;
}

export interface FieldBasisEntry {
  field: string;
  citations: { url: string; title: string; excerpts: string[] }[];
  reasoning: string;
  confidence: 'high' | 'medium' | 'low';
}

export interface Candidate {
  candidate_id: string;
  name: string;
  url: string;
  description: string;
  match_status: 'pending' | 'matched' | 'unmatched';
  reasons: ConditionReason[];
  output: Record<string, unknown>;
  basis: FieldBasisEntry[];
}

export type TerminationReason = 'limit_reached' | 'candidates_exhausted' | 'cancelled' | 'error';

export type FindAllSchemaDerived = DomainEvent<'FindAllSchemaDerived', { schema: FindAllSchema }>;
export type FindAllQueryGenerated = DomainEvent<'FindAllQueryGenerated', { query: string }>;
export type FindAllListPageRead = DomainEvent<'FindAllListPageRead', { url: string; rows: number }>;
export type FindAllCandidateFound = DomainEvent<
  'FindAllCandidateFound',
  { candidate_id: string; name: string; url: string; description: string }
>;
export type FindAllCandidateChecked = DomainEvent<
  'FindAllCandidateChecked',
  {
    candidate_id: string;
    match_status: 'matched' | 'unmatched';
    reasons: ConditionReason[];
    output: Record<string, unknown>;
    basis: FieldBasisEntry[];
  }
>;
export type FindAllEntityEnriched = DomainEvent<
  'FindAllEntityEnriched',
  { enrichment_id: string; candidate_id: string; output: Record<string, unknown>; basis: FieldBasisEntry[] }
>;
export type FindAllTerminated = DomainEvent<'FindAllTerminated', { reason: 'limit_reached' | 'candidates_exhausted' }>;
/** One read call of the run rendered `renders` pages in the browser (charged `sku_render` as it happens). */
export type FindAllPagesRendered = DomainEvent<'FindAllPagesRendered', { read_id: string; renders: number }>;

export type FindAllProgressEvent =
  | FindAllSchemaDerived
  | FindAllQueryGenerated
  | FindAllListPageRead
  | FindAllCandidateFound
  | FindAllCandidateChecked
  | FindAllEntityEnriched
  | FindAllTerminated
  | FindAllPagesRendered;

export const FINDALL_PROGRESS_TYPES: readonly FindAllProgressEvent['type'][] = [
  'FindAllSchemaDerived',
  'FindAllQueryGenerated',
  'FindAllListPageRead',
  'FindAllCandidateFound',
  'FindAllCandidateChecked',
  'FindAllEntityEnriched',
  'FindAllTerminated',
  'FindAllPagesRendered',
];

/** Enrichment asked for by `POST .../enrich` (folded from the reopen's detail). */
export interface Enrichment {
  enrichment_id: string;
  fields: string[] | null;
  output_schema: Record<string, unknown> | null;
}

export type FindAllEvent = LifecycleEvent<'FindAllRun', 'findall_id', FindAllParams> | FindAllProgressEvent;

export const FINDALL_STREAM_PREFIX = 'findall-';
