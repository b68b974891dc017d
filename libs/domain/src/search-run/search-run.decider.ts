import type { SkuLineItem } from '../charge/charge.events';
import { Conflict, Invalid } from '../decider';
import { lineItem } from '../pricing';
import {
  decideResearch,
  evolveResearch,
  initialResearch,
  isResearchCommand,
  renderItems,
  RESEARCH_EVENT_TYPES,
} from '../run/research-progress';
import { type RunCommand, runDecider, type RunKindSpec } from '../run/run.decider';
import type { RunState } from '../run/run.events';
import { DEEP_SEARCH_BOUNDS as BOUNDS } from './deep-search.bounds';
import type {
  DeepSearchParams,
  SearchRunProgress,
  SearchRunProgressCommand,
  SearchRunProgressEvent,
} from './search-run.events';

/** A deep run costs one credit per query, charged on completion (API.md "Credits"). */
export const deepSearchItems = (params: Pick<DeepSearchParams, 'queries'>): SkuLineItem[] => [
  lineItem('sku_deep_search', params.queries.length),
];

/**
 * The queries a deep run researches: all of them, or with a budget the first `max_credits` (a
 * query costs a credit); the rest are left out and the run ends `budget_exhausted`.
 */
export const queriesWithinBudget = (params: Pick<DeepSearchParams, 'queries' | 'max_credits'>): string[] =>
  params.max_credits ? params.queries.slice(0, params.max_credits) : params.queries;

const LIMITS: [keyof DeepSearchParams, (p: DeepSearchParams) => number, number, number][] = [
  ['queries', (p) => p.queries.length, BOUNDS.queries.min, BOUNDS.queries.max],
  ['limit', (p) => p.limit, BOUNDS.limit.min, BOUNDS.limit.max],
  ['max_subqueries', (p) => p.max_subqueries, BOUNDS.max_subqueries.min, BOUNDS.max_subqueries.max],
  ['max_fetches', (p) => p.max_fetches, BOUNDS.max_fetches.min, BOUNDS.max_fetches.max],
];

export const searchRunKind: RunKindSpec<
  'SearchRun',
  'search_id',
  DeepSearchParams,
  SearchRunProgress,
  SearchRunProgressCommand,
  SearchRunProgressEvent
> = {
  prefix: 'SearchRun',
  idKey: 'search_id',
  noun: 'search run',
  // Invariants the run relies on (credits are one per query); the gateway reports field errors.
  maxCredits: (params) => params.max_credits,
  validate(params) {
    for (const [field, measure, min, max] of LIMITS) {
      const value = measure(params);
      if (!Number.isInteger(value) || value < min || value > max)
        throw new Invalid(`${field} must be ${min} to ${max}`);
    }
  },
  progressEventTypes: [...RESEARCH_EVENT_TYPES, 'ReportWritten'],
  progress: {
    initial: { ...initialResearch, report: null },
    decide(command, run) {
      if (isResearchCommand(command)) return decideResearch(command, run.progress);
      if (command.type !== 'RecordReport') {
        // Unreachable by type; a command off the bus is checked all the same.
        const unexpected: { type: string } = command;
        throw new Error(`unknown command ${unexpected.type}`);
      }
      if (run.progress.report) return [];
      const { report, findings, sources, usage } = command;
      return [{ type: 'ReportWritten', data: { report, findings, sources, usage } }];
    },
    evolve(progress, event) {
      if (event.type === 'ReportWritten') return progress.report ? progress : { ...progress, report: event.data };
      return evolveResearch(progress, event);
    },
    charge(run) {
      if (!run.progress.report) throw new Conflict('no report yet');
      return [...deepSearchItems(run.params), ...renderItems(run.progress)];
    },
  },
};

export type SearchRunState = RunState<DeepSearchParams, SearchRunProgress>;
export type SearchRunCommand = RunCommand<DeepSearchParams, SearchRunProgressCommand>;

export const searchRunDecider = runDecider(searchRunKind);
