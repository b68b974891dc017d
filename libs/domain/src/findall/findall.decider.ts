import type { CreditsCharged } from '../charge/charge.events';
import { Conflict, Invalid } from '../decider';
import { lineItem, totalCredits } from '../pricing';
import { type RunCommand, runDecider, type RunKindSpec } from '../run/run.decider';
import type { RunState } from '../run/run.events';
import type {
  Candidate,
  ConditionReason,
  Enrichment,
  FieldBasisEntry,
  FindAllParams,
  FindAllProgressEvent,
  FindAllSchema,
} from './findall.events';
import { FINDALL_EXCLUDE_MAX, FINDALL_PROGRESS_TYPES } from './findall.events';

export interface FindAllProgress {
  schema: FindAllSchema | null;
  /** Generated queries, in order (each charged once). */
  queries: string[];
  /** List pages read (with "next page" followed): extend does not read them again. */
  list_pages: string[];
  candidates: Candidate[];
  /** Added by extend. */
  extra_limit: number;
  enrichments: (Enrichment & { done: string[] })[];
  termination: 'limit_reached' | 'candidates_exhausted' | null;
  /** Read calls whose renders were charged (absent: none): a redelivered record charges nothing. */
  rendered_reads?: string[];
}

export type FindAllProgressCommand =
  | { type: 'RecordSchema'; worker_id: string; schema: FindAllSchema }
  | { type: 'RecordQuery'; worker_id: string; query: string }
  | { type: 'RecordListPage'; worker_id: string; url: string; rows: number }
  | { type: 'RecordCandidate'; worker_id: string; candidate_id: string; name: string; url: string; description: string }
  | {
      type: 'RecordCheck';
      worker_id: string;
      candidate_id: string;
      match_status: 'matched' | 'unmatched';
      reasons: ConditionReason[];
      output: Record<string, unknown>;
      basis: FieldBasisEntry[];
    }
  | {
      type: 'RecordEnriched';
      worker_id: string;
      enrichment_id: string;
      candidate_id: string;
      output: Record<string, unknown>;
      basis: FieldBasisEntry[];
    }
  | { type: 'RecordTermination'; worker_id: string; reason: 'limit_reached' | 'candidates_exhausted' }
  | { type: 'RecordRenders'; worker_id: string; read_id: string; renders: number };

/** The entity limit in force: the request's plus every extend's. */
export const findAllLimit = (params: FindAllParams, progress: FindAllProgress): number =>
  params.limit + progress.extra_limit;

/** What a FindAll decision appends: its progress facts and the charges that accrue with them. */
type FindAllDecided = FindAllProgressEvent | CreditsCharged;

const charge = (
  teamId: string,
  runId: string,
  sku: 'sku_findall_query' | 'sku_findall_match' | 'sku_findall_enrich' | 'sku_render',
  at: string,
  quantity = 1,
): CreditsCharged => {
  const items = [lineItem(sku, quantity)];
  return {
    type: 'CreditsCharged',
    data: { team_id: teamId, request_id: runId, items, credits: totalCredits(items), at },
  };
};

export const findAllRunKind: RunKindSpec<
  'FindAllRun',
  'findall_id',
  FindAllParams,
  FindAllProgress,
  FindAllProgressCommand,
  FindAllDecided
> = {
  prefix: 'FindAllRun',
  idKey: 'findall_id',
  noun: 'FindAll run',
  maxCredits: (params) => params.max_credits,
  validate(params) {
    if (!params.query?.trim()) throw new Invalid('query must be at least 1 character');
    if (!Number.isInteger(params.limit) || params.limit < 1 || params.limit > 100)
      throw new Invalid('limit must be 1 to 100');
    const exclude = params.exclude_list ?? [];
    if (exclude.length > FINDALL_EXCLUDE_MAX)
      throw new Invalid(`exclude_list holds at most ${FINDALL_EXCLUDE_MAX} entries, got ${exclude.length}`);
    exclude.forEach((entry, i) => {
      if (!entry.name?.trim() && !entry.url?.trim()) throw new Invalid(`exclude_list[${i}] must give a name or a url`);
    });
  },
  progressEventTypes: FINDALL_PROGRESS_TYPES as readonly FindAllDecided['type'][],
  progress: {
    initial: {
      schema: null,
      queries: [],
      list_pages: [],
      candidates: [],
      extra_limit: 0,
      enrichments: [],
      termination: null,
    },
    decide(command, run, { now }) {
      const p = run.progress;
      switch (command.type) {
        case 'RecordSchema':
          return p.schema ? [] : [{ type: 'FindAllSchemaDerived', data: { schema: command.schema } }];
        case 'RecordQuery':
          // Each generated query is charged as it happens (API.md "Credits").
          return p.queries.includes(command.query)
            ? []
            : [
                { type: 'FindAllQueryGenerated', data: { query: command.query } },
                charge(run.team_id, run.run_id, 'sku_findall_query', now),
              ];
        case 'RecordListPage':
          return p.list_pages.includes(command.url)
            ? []
            : [{ type: 'FindAllListPageRead', data: { url: command.url, rows: command.rows } }];
        case 'RecordCandidate': {
          if (p.candidates.some((c) => c.candidate_id === command.candidate_id || c.url === command.url)) return [];
          const { type: _t, worker_id: _w, ...data } = command;
          return [{ type: 'FindAllCandidateFound', data }];
        }
        case 'RecordCheck': {
          const candidate = p.candidates.find((c) => c.candidate_id === command.candidate_id);
          if (!candidate) throw new Conflict(`no candidate ${command.candidate_id}`);
          if (candidate.match_status !== 'pending') return [];
          const { type: _t, worker_id: _w, ...data } = command;
          const events: FindAllDecided[] = [{ type: 'FindAllCandidateChecked', data }];
          if (command.match_status === 'matched')
            events.push(charge(run.team_id, run.run_id, 'sku_findall_match', now));
          return events;
        }
        case 'RecordEnriched': {
          const enrichment = p.enrichments.find((e) => e.enrichment_id === command.enrichment_id);
          if (!enrichment) throw new Conflict(`no enrichment ${command.enrichment_id}`);
          if (enrichment.done.includes(command.candidate_id)) return [];
          const { type: _t, worker_id: _w, ...data } = command;
          return [{ type: 'FindAllEntityEnriched', data }, charge(run.team_id, run.run_id, 'sku_findall_enrich', now)];
        }
        case 'RecordTermination':
          return p.termination ? [] : [{ type: 'FindAllTerminated', data: { reason: command.reason } }];
        case 'RecordRenders': {
          // Pages rendered in the browser while reading: charged as it happens, like the run's other SKUs.
          const renders = Math.floor(command.renders);
          if (!(renders > 0) || (p.rendered_reads ?? []).includes(command.read_id)) return [];
          return [
            { type: 'FindAllPagesRendered', data: { read_id: command.read_id, renders } },
            charge(run.team_id, run.run_id, 'sku_render', now, renders),
          ];
        }
        default: {
          const unreachable: { type: string } = command satisfies never;
          throw new Error(`unknown command ${unreachable.type}`);
        }
      }
    },
    evolve(p, event) {
      if (event.type === 'CreditsCharged') return p;
      switch (event.type) {
        case 'FindAllSchemaDerived':
          return p.schema ? p : { ...p, schema: event.data.schema };
        case 'FindAllQueryGenerated':
          return p.queries.includes(event.data.query) ? p : { ...p, queries: [...p.queries, event.data.query] };
        case 'FindAllListPageRead':
          return p.list_pages.includes(event.data.url) ? p : { ...p, list_pages: [...p.list_pages, event.data.url] };
        case 'FindAllCandidateFound':
          return p.candidates.some((c) => c.candidate_id === event.data.candidate_id)
            ? p
            : {
                ...p,
                candidates: [
                  ...p.candidates,
                  { ...event.data, match_status: 'pending', reasons: [], output: {}, basis: [] },
                ],
              };
        case 'FindAllCandidateChecked': {
          const d = event.data;
          return {
            ...p,
            candidates: p.candidates.map((c) =>
              c.candidate_id === d.candidate_id && c.match_status === 'pending'
                ? { ...c, match_status: d.match_status, reasons: d.reasons, output: d.output, basis: d.basis }
                : c,
            ),
          };
        }
        case 'FindAllEntityEnriched': {
          const d = event.data;
          return {
            ...p,
            enrichments: p.enrichments.map((e) =>
              e.enrichment_id === d.enrichment_id && !e.done.includes(d.candidate_id)
                ? { ...e, done: [...e.done, d.candidate_id] }
                : e,
            ),
            candidates: p.candidates.map((c) =>
              c.candidate_id === d.candidate_id
                ? {
                    ...c,
                    output: { ...c.output, ...d.output },
                    basis: [...c.basis.filter((b) => !(b.field in d.output)), ...d.basis],
                  }
                : c,
            ),
          };
        }
        case 'FindAllTerminated':
          return p.termination ? p : { ...p, termination: event.data.reason };
        case 'FindAllPagesRendered':
          return (p.rendered_reads ?? []).includes(event.data.read_id)
            ? p
            : { ...p, rendered_reads: [...(p.rendered_reads ?? []), event.data.read_id] };
        default:
          return p;
      }
    },
    // Charges accrue as the work happens: nothing more on completion.
    charge(run) {
      if (!run.progress.termination) throw new Conflict('the run has not finished its work');
      return [];
    },
    validateReopen(detail, _progress, params) {
      if (params.generator === 'preview')
        throw new Conflict('a preview run cannot be extended or enriched: start a run with generator "base"');
      if (detail.additional_limit !== undefined) {
        const n = detail.additional_limit;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 100)
          throw new Invalid('additional_limit must be 1 to 100');
        return;
      }
      const enrich = reopenDetail(detail);
      if ('additional_limit' in enrich) return;
      if (!(enrich.fields && enrich.fields.length > 0) && !enrich.output_schema)
        throw new Invalid('enrich needs fields or an output_schema');
    },
    reopened(p, stored) {
      const detail = reopenDetail(stored);
      if ('additional_limit' in detail)
        return { ...p, extra_limit: p.extra_limit + detail.additional_limit, termination: null };
      const enrichment: Enrichment & { done: string[] } = { ...detail, done: [] };
      return { ...p, enrichments: [...p.enrichments, enrichment] };
    },
  },
};

/** What a reopened FindAll run is given: more matches to find, or fields to add to its matches. */
type FindAllReopen = { additional_limit: number } | Enrichment;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The reopen detail as the run's events hold it (a plain record), read field by field with its types. */
function reopenDetail(detail: Record<string, unknown>): FindAllReopen {
  if (typeof detail.additional_limit === 'number') return { additional_limit: detail.additional_limit };
  return {
    enrichment_id: typeof detail.enrichment_id === 'string' ? detail.enrichment_id : '',
    fields: Array.isArray(detail.fields) ? detail.fields.filter((f): f is string => typeof f === 'string') : null,
    output_schema: isRecord(detail.output_schema) ? detail.output_schema : null,
  };
}

export type FindAllState = RunState<FindAllParams, FindAllProgress>;
export type FindAllCommand = RunCommand<FindAllParams, FindAllProgressCommand>;

export const findAllDecider = runDecider(findAllRunKind);
