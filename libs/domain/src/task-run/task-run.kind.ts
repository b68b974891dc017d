import { lifecycleNames } from '../run/run.events';
import { teamStream } from '../team/team.events';
import { publishLifecycle, publishResearch, type RunKind } from '../run/run-kind';
import { taskRunDecider, taskRunKind, type TaskRunState } from './task-run.decider';
import { TASK_RUN_STREAM_PREFIX } from './task-run.events';
import { taskRunView, type TaskRunView } from './task-run.view';

export const TASK_RUNS_COLLECTION = 'task_runs';

/** Task runs as a run kind of the shared machinery; a list item is the full view. */
export const taskRuns: RunKind<TaskRunState, TaskRunView, TaskRunView> = {
  name: 'task',
  prefix: taskRunKind.prefix,
  streamPrefix: TASK_RUN_STREAM_PREFIX,
  idKey: taskRunKind.idKey,
  noun: 'Task run',
  collection: TASK_RUNS_COLLECTION,
  webhookType: 'task_run',
  eventTypes: [...Object.values(lifecycleNames(taskRunKind.prefix)), 'CreditsCharged', ...taskRunKind.progressEventTypes],
  decider: taskRunDecider,
  view: taskRunView,
  listItem: taskRunView,
  webhookSigner: (state) => teamStream(state.team_id),
  webhookUrl: (state) => state.params.webhook,
  publish(event, state) {
    if (state.status === 'absent') return undefined;
    const lifecycle = publishLifecycle(taskRuns, event, state, () => taskRunView(state), () => ({ task: state.params.task, processor: state.params.processor }));
    if (lifecycle) return lifecycle;
    // The output is published with run.completed (the full view); its own fact has no public name.
    if (event.type === 'TaskOutputWritten') return undefined;
    return publishResearch(event, state.progress);
  },
};
