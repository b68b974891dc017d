import type { SkuLineItem } from '../charge/charge.events';
import type { DomainEvent } from '../decider';
import { lineItems } from '../pricing';
import { Confidence, MapOf, Nullable, type Static, TokenCounts, Type } from '../schema';

/**
 * The research pipeline's progress facts, shared by every kind that runs it (deep search, tasks,
 * chat): plan, SERP pages, page reads, graded findings, merged results. Each `Record*` is
 * idempotent, so a resumed (taken-over) pipeline appends only what is new.
 */
export const RunResultSchema = Type.Object(
  {
    url: Type.String(),
    title: Type.String(),
    snippet: Type.String(),
    date: Nullable(Type.String()),
    domain: Type.String(),
    score: Type.Number(),
    /** `advanced_settings.contents` of a deep run: the page's text, highlights and summary. */
    text: Type.Optional(Type.String()),
    highlights: Type.Optional(Type.Array(Type.String())),
    summary: Type.Optional(Type.String()),
  },
  { $id: 'RunResult' },
);
export type RunResult = Static<typeof RunResultSchema>;

export const FindingVerdictSchema = Type.Object(
  {
    probability: Type.Number(),
    answered: Type.Boolean(),
    value: Type.String(),
    features: MapOf(Type.Number()),
    reason: Type.String(),
  },
  {
    description:
      "The answer model's judgement of a value read from the pages: its probability of being right, whether it was given (false: withheld, the pages do not answer), the named features it weighed, and why in words",
  },
);
export type FindingVerdict = Static<typeof FindingVerdictSchema>;

export const FindingSchema = Type.Object(
  {
    subquery: Type.String(),
    answer: Type.String(),
    citations: Type.Array(Type.Integer(), {
      description: 'Indexes into `sources` (1-based, as cited in the report)',
    }),
    confidence: Confidence,
    evidence: Type.Array(Type.Object({ source: Type.Integer(), quote: Type.String() })),
    /** Kept with the run so an answer can be explained and a regression traced (the extractive engine). */
    verdict: Type.Optional(FindingVerdictSchema),
  },
  { $id: 'Finding' },
);
export type Finding = Static<typeof FindingSchema>;

export const SourceSchema = Type.Object(
  {
    index: Type.Integer(),
    url: Type.String(),
    title: Type.String(),
    domain: Type.String(),
    fetched: Type.Boolean(),
    quality: Confidence,
    first_seen_subquery: Type.String(),
  },
  { $id: 'Source' },
);
export type Source = Static<typeof SourceSchema>;

export const RunUsageSchema = Type.Object(
  {
    planner_calls: Type.Integer(),
    grader_calls: Type.Integer(),
    synth_calls: Type.Integer(),
    search_queries: Type.Integer(),
    pages_fetched: Type.Integer(),
    tokens: TokenCounts,
  },
  { $id: 'RunUsage' },
);
export type RunUsage = Static<typeof RunUsageSchema>;

/**
 * The plan, and each follow-up round's plan (`round` 2, 3, …): every sub-query so far, the new
 * ones last. Events written before follow-ups existed carry no round: they are round 1.
 */
export type SubqueriesPlanned = DomainEvent<
  'SubqueriesPlanned',
  { subqueries: string[]; pages_target: number; round?: number }
>;
export type SerpPageFetched = DomainEvent<'SerpPageFetched', { subquery: string; page: number; hits: number }>;
/** `rendered`: the read rendered the page in the browser (charged `sku_render` with the run). */
export type PageFetched = DomainEvent<
  'PageFetched',
  { url: string; ok: boolean; title: string | null; error: string | null; rendered?: true }
>;
export type FindingGraded = DomainEvent<'FindingGraded', { finding: Finding }>;
/** The merged, de-duplicated results so far (the whole list, replacing the previous one). */
export type ResultsMerged = DomainEvent<'ResultsMerged', { results: RunResult[]; reranked: boolean }>;

export type ResearchEvent = SubqueriesPlanned | SerpPageFetched | PageFetched | FindingGraded | ResultsMerged;

export const RESEARCH_EVENT_TYPES: readonly ResearchEvent['type'][] = [
  'SubqueriesPlanned',
  'SerpPageFetched',
  'PageFetched',
  'FindingGraded',
  'ResultsMerged',
];
const researchTypes: ReadonlySet<string> = new Set(RESEARCH_EVENT_TYPES);
/** A stored event is one of the research pipeline's facts. */
export const isResearchEvent = (stored: DomainEvent): stored is ResearchEvent => researchTypes.has(stored.type);

export type ResearchCommand =
  | { type: 'RecordPlan'; worker_id: string; subqueries: string[]; pages_target: number; round?: number }
  | { type: 'RecordSerpPage'; worker_id: string; subquery: string; page: number; hits: number }
  | {
      type: 'RecordPageFetched';
      worker_id: string;
      url: string;
      ok: boolean;
      title: string | null;
      error: string | null;
      rendered?: boolean;
    }
  | { type: 'RecordFinding'; worker_id: string; finding: Finding }
  | { type: 'RecordResults'; worker_id: string; results: RunResult[]; reranked: boolean };

export const RESEARCH_COMMAND_TYPES: ReadonlySet<string> = new Set<ResearchCommand['type']>([
  'RecordPlan',
  'RecordSerpPage',
  'RecordPageFetched',
  'RecordFinding',
  'RecordResults',
]);
/** A kind's command is one of the research pipeline's (the kinds that run it decide those alike). */
export const isResearchCommand = (command: { type: string }): command is ResearchCommand =>
  RESEARCH_COMMAND_TYPES.has(command.type);

export interface ResearchProgress {
  plan: { subqueries: string[]; pages_target: number; round?: number } | null;
  /** Distinct (subquery, page) SERP pages. */
  serp_pages: { subquery: string; page: number; hits: number }[];
  /** Latest outcome per URL. */
  fetched: { url: string; ok: boolean; title: string | null; error: string | null; rendered?: true }[];
  /** Page reads rendered in the browser (absent: none), charged `sku_render` when the run completes. */
  renders?: number;
  /** One per sub-query, as graded. */
  graded: Finding[];
  results: RunResult[];
  reranked: boolean;
}

export const initialResearch: ResearchProgress = {
  plan: null,
  serp_pages: [],
  fetched: [],
  graded: [],
  results: [],
  reranked: false,
};

const sameResult = (a: RunResult, b: RunResult) => JSON.stringify(a) === JSON.stringify(b);

export function decideResearch(command: ResearchCommand, progress: ResearchProgress): ResearchEvent[] {
  switch (command.type) {
    case 'RecordPlan': {
      // The first plan of each round wins: a re-planning after takeover may differ, and pages
      // already count against it. A later round extends the plan.
      const round = command.round ?? 1;
      if (progress.plan && round <= (progress.plan.round ?? 1)) return [];
      return [
        {
          type: 'SubqueriesPlanned',
          data: { subqueries: command.subqueries, pages_target: command.pages_target, ...(round > 1 && { round }) },
        },
      ];
    }
    case 'RecordSerpPage': {
      const known = progress.serp_pages.some((p) => p.subquery === command.subquery && p.page === command.page);
      return known
        ? []
        : [{ type: 'SerpPageFetched', data: { subquery: command.subquery, page: command.page, hits: command.hits } }];
    }
    case 'RecordPageFetched': {
      const known = progress.fetched.find((p) => p.url === command.url);
      // An ok fetch is final; a failure is repeated as nothing new, but a retry may still succeed.
      if (known && (known.ok || !command.ok)) return [];
      return [
        {
          type: 'PageFetched',
          data: {
            url: command.url,
            ok: command.ok,
            title: command.title,
            error: command.error,
            ...(command.rendered && { rendered: true as const }),
          },
        },
      ];
    }
    case 'RecordFinding':
      return progress.graded.some((f) => f.subquery === command.finding.subquery)
        ? []
        : [{ type: 'FindingGraded', data: { finding: command.finding } }];
    case 'RecordResults': {
      const unchanged =
        progress.reranked === command.reranked &&
        progress.results.length === command.results.length &&
        progress.results.every((r, i) => sameResult(r, command.results[i]!));
      return unchanged
        ? []
        : [{ type: 'ResultsMerged', data: { results: command.results, reranked: command.reranked } }];
    }
    default: {
      const unreachable: { type: string } = command satisfies never;
      throw new Error(`unknown command ${unreachable.type}`);
    }
  }
}

export function evolveResearch<Progress extends ResearchProgress>(progress: Progress, event: ResearchEvent): Progress {
  switch (event.type) {
    case 'SubqueriesPlanned':
      return progress.plan && (event.data.round ?? 1) <= (progress.plan.round ?? 1)
        ? progress
        : { ...progress, plan: event.data };
    case 'SerpPageFetched': {
      const { subquery, page } = event.data;
      return progress.serp_pages.some((p) => p.subquery === subquery && p.page === page)
        ? progress
        : { ...progress, serp_pages: [...progress.serp_pages, event.data] };
    }
    case 'PageFetched':
      return {
        ...progress,
        fetched: [...progress.fetched.filter((p) => p.url !== event.data.url), event.data],
        ...(event.data.rendered && { renders: (progress.renders ?? 0) + 1 }),
      };
    case 'FindingGraded':
      return progress.graded.some((f) => f.subquery === event.data.finding.subquery)
        ? progress
        : { ...progress, graded: [...progress.graded, event.data.finding] };
    case 'ResultsMerged':
      return { ...progress, results: event.data.results, reranked: event.data.reranked };
    default:
      return progress;
  }
}

/** What the pages a run rendered in the browser cost, added to its completion charge. */
export const renderItems = (progress: Pick<ResearchProgress, 'renders'>): SkuLineItem[] =>
  lineItems({ sku_render: progress.renders ?? 0 });
