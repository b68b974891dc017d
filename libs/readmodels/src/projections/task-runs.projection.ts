import { taskRuns, type TaskRunState } from '@app/domain/task-run';
import { type RunDoc, runProjection } from './runs.projection';

/** `task_runs`: one document per task run. */
export const TASK_RUNS = taskRuns.collection;
export type TaskRunDoc = RunDoc<TaskRunState>;
export const taskRunsProjection = runProjection(taskRuns, 1);
