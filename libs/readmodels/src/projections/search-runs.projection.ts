import { searchRuns, type SearchRunState } from '@app/domain/search-run';
import { type RunDoc, runProjection } from './runs.projection';

/** `search_runs`: one document per deep run. Version 2: the shared run state (progress apart from lifecycle). */
export const SEARCH_RUNS = searchRuns.collection;
export type SearchRunDoc = RunDoc<SearchRunState>;
export const searchRunsProjection = runProjection(searchRuns, 2);
