import { teamStream } from '../team/team.events';
import { defineRunKind, publishResearch } from '../run/run-kind';
import { taskRunKind } from './task-run.decider';
import { TASK_RUN_STREAM_PREFIX } from './task-run.events';
import { taskRunView } from './task-run.view';

export const TASK_RUNS_COLLECTION = 'task_runs';

/** Task runs (POST /v1/tasks, /v1/tasks/runs), worked by the research service; a list item is the full view. */
export const taskRuns = defineRunKind(taskRunKind, {
  name: 'task',
  streamPrefix: TASK_RUN_STREAM_PREFIX,
  idPrefix: 'task_',
  noun: 'Task run',
  service: 'research',
  view: taskRunView,
  readModel: { collection: TASK_RUNS_COLLECTION, version: 2, listItem: taskRunView },
  webhook: { type: 'task_run', url: (state) => state.params.webhook, signer: (state) => teamStream(state.team_id) },
  queued: true,
  queuedFields: (state) => ({ task: state.params.task, processor: state.params.processor }),
  // The output is published with run.completed (the full view); its own fact has no public name.
  publishProgress: (event, state) =>
    event.type === 'TaskOutputWritten' ? undefined : publishResearch(event, state.progress),
});
