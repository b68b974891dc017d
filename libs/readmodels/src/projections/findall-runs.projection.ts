import { findAllRuns, type FindAllState } from '@app/domain/findall';
import { type RunDoc, runProjection } from './runs.projection';

/** `findall_runs`: one document per FindAll run. */
export const FINDALL_RUNS = findAllRuns.collection;
export type FindAllRunDoc = RunDoc<FindAllState>;
export const findAllRunsProjection = runProjection(findAllRuns, 1);
