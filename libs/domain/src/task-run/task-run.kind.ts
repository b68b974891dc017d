import { teamStream } from '../team/team.events';
import { defineRunKind, publishResearch } from '../run/run-kind';
import { taskRunKind } from './task-run.decider';
import { RUN_STATUSES } from '../run/run.events';
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
  readModel: { collection: TASK_RUNS_COLLECTION, version: 1, listItem: taskRunView },
  webhook: { type: 'task_run', url: (state) => state.params.webhook, signer: (state) => teamStream(state.team_id) },
  queued: true,
  routes: {
    tag: 'Tasks',
    param: 'task_id',
    list: { path: 'v1/tasks', key: 'tasks', defaultLimit: 20, byStatus: RUN_STATUSES },
    // The run's own path (with its stream and socket) and the task's, which are the same run.
    view: ['v1/tasks/runs/:task_id', 'v1/tasks/:task_id'],
    cancel: 'v1/tasks/:task_id/cancel',
    history: 'v1/tasks/:task_id/history',
    sse: 'v1/tasks/runs/:task_id/events',
    recorded: 'v1/tasks/:task_id/events',
    socket: 'v1/tasks/runs/:task_id/ws',
  },
  queuedFields: (state) => ({ task: state.params.task, processor: state.params.processor }),
  // The output is published with run.completed (the full view); its own fact has no public name.
  publishProgress: (event, state) =>
    event.type === 'TaskOutputWritten' ? undefined : publishResearch(event, state.progress),
});
