import type { DomainEvent } from '../decider';
import type { LifecycleEvent } from '../run/run.events';
import { AnyObject, Confidence, Nullable, type Static, StringEnum, Type } from '../schema';

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
  /**
   * Entities the run must not return (API.md "FindAll preview and exclusions"): a candidate whose
   * normalised URL or name matches an entry is never checked, returned or charged; an extend keeps
   * the list. Absent in runs requested before it existed.
   */
  exclude_list?: FindAllExclusion[];
  /**
   * `preview`: a quick, cheap look at what a full run would find: candidates generated until
   * FINDALL_PREVIEW_CANDIDATES are known, their conditions checked, no field filled; only query
   * and match SKUs charged; it cannot be extended or enriched. Absent: a full run (`base`).
   */
  generator?: 'preview';
  /** The run's own budget in credits (API.md "Budgets"): it never charges past it; absent or null: none. */
  max_credits?: number | null;
}

/** The generators of a FindAll run: `base` (the full run) and `preview`. */
export const FINDALL_GENERATORS = ['base', 'preview'] as const;
/** Candidates a preview run generates and checks at most. */
export const FINDALL_PREVIEW_CANDIDATES = 10;

/** One entity to leave out of a FindAll run: by name, by URL, or both (either matches). */
export interface FindAllExclusion {
  name: string | null;
  url: string | null;
}

/** At most this many entries in a FindAll run's exclude_list. */
export const FINDALL_EXCLUDE_MAX = 1_000;

export const CONDITION_KINDS = [
  'keyword',
  'place',
  'year_after',
  'year_before',
  'year_in',
  'count_more',
  'count_less',
] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

export const FindAllConditionSchema = Type.Object({
  name: Type.String({ description: 'In words, as shown to the caller: "founded after 2015"' }),
  kind: StringEnum(CONDITION_KINDS),
  value: Type.Union([Type.String(), Type.Number()]),
});
export type FindAllCondition = Static<typeof FindAllConditionSchema>;

export const FindAllSchemaSchema = Type.Object({
  objective: Type.String(),
  entity_type: Type.String(),
  conditions: Type.Array(FindAllConditionSchema),
  generator: Type.Object({ queries: Type.Array(Type.String()) }),
});
export type FindAllSchema = Static<typeof FindAllSchemaSchema>;

export const ConditionReasonSchema = Type.Object({
  condition: Type.String(),
  holds: Type.Boolean(),
  evidence_url: Nullable(Type.String()),
  excerpt: Nullable(Type.String()),
});
export type ConditionReason = Static<typeof ConditionReasonSchema>;

export const FieldBasisEntrySchema = Type.Object({
  field: Type.String(),
  citations: Type.Array(Type.Object({ url: Type.String(), title: Type.String(), excerpts: Type.Array(Type.String()) })),
  reasoning: Type.String(),
  confidence: Confidence,
});
export type FieldBasisEntry = Static<typeof FieldBasisEntrySchema>;

export const CandidateSchema = Type.Object(
  {
    candidate_id: Type.String(),
    name: Type.String(),
    url: Type.String(),
    description: Type.String(),
    match_status: StringEnum(['pending', 'matched', 'unmatched']),
    reasons: Type.Array(ConditionReasonSchema),
    output: AnyObject(),
    basis: Type.Array(FieldBasisEntrySchema),
  },
  { $id: 'FindAllCandidate' },
);
export type Candidate = Static<typeof CandidateSchema>;

export type TerminationReason = 'limit_reached' | 'candidates_exhausted' | 'budget_exhausted' | 'cancelled' | 'error';

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
