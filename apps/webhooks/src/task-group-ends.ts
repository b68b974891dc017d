import {
  runEnds,
  TASK_GROUP_ENDS_PREFIX,
  taskGroupDecider,
  taskGroupEndsDecider,
  taskGroupEndsStream,
  taskGroupStream,
  taskGroupView,
  type TaskParams,
  taskRuns,
  teamStream,
} from '@app/domain';
import { aggregateStream, type EventStore, handleCommand, type RecordedEvent } from '@app/eventstore';
import type { RequestDelivery } from './run-webhooks';

/** The task run ends a group follows (its member runs'), and the completions it announces. */
export const taskGroupEndFilter = {
  streamPrefixes: [taskRuns.streamPrefix, TASK_GROUP_ENDS_PREFIX],
  eventTypePrefixes: [...Object.keys(runEnds(taskRuns.prefix)), 'TaskGroupCompleted'],
};

/**
 * Records a task group's member run's end on the group's ends stream (once: a replay decides
 * nothing), with the group's completion when its last run ended. Called by the follower of run
 * ends for every task run end, with the run's first event (its request, naming its group).
 */
export async function recordGroupRunEnd(
  store: EventStore,
  end: RecordedEvent,
  requested: RecordedEvent | undefined,
): Promise<void> {
  const ending = runEnds(taskRuns.prefix)[end.type];
  if (!ending || !end.stream.startsWith(taskRuns.streamPrefix)) return;
  const params = (requested?.data as { params?: TaskParams } | undefined)?.params;
  if (params?.taskgroup_id === undefined || params.taskgroup_seq === undefined) return;
  const group = await aggregateStream(store, taskGroupStream(params.taskgroup_id), taskGroupDecider);
  if (group.state.status === 'absent') return;
  await handleCommand(
    store,
    taskGroupEndsStream(params.taskgroup_id),
    taskGroupEndsDecider,
    {
      type: 'RecordGroupRunEnded',
      taskgroup_id: params.taskgroup_id,
      run_id: end.stream.slice(taskRuns.streamPrefix.length),
      seq: params.taskgroup_seq,
      status: ending.suffix,
      num_task_runs: group.state.num_task_runs,
    },
    {
      // Many runs of one group end at once (and two followers may record the same end).
      maxAttempts: 20,
      now: typeof end.data[ending.at] === 'string' ? (end.data[ending.at] as string) : end.created,
      metadata: { team_id: group.state.team_id, correlation_id: params.taskgroup_id, causation_id: end.id },
    },
  );
}

/**
 * The `task_group.completed` delivery a group's completion announces, when the group was made
 * with a webhook: its view as it completed (every run ended, counted by how each ended). Each
 * completion is its own delivery (runs added later complete it again).
 */
export async function taskGroupWebhookDelivery(
  store: EventStore,
  completed: RecordedEvent,
  policy: { max_attempts: number; backoff_seconds: number },
): Promise<RequestDelivery | undefined> {
  if (completed.type !== 'TaskGroupCompleted' || !completed.stream.startsWith(TASK_GROUP_ENDS_PREFIX)) return undefined;
  const data = completed.data as {
    taskgroup_id: string;
    completion: number;
    num_task_runs: number;
    counts: { completed: number; failed: number; cancelled: number };
    completed_at: string;
  };
  const { state } = await aggregateStream(store, taskGroupStream(data.taskgroup_id), taskGroupDecider);
  if (state.status === 'absent' || !state.webhook) return undefined;
  const view = taskGroupView(
    { ...state, num_task_runs: data.num_task_runs },
    { queued: 0, running: 0, ...data.counts },
  );
  const type = 'task_group.completed';
  return {
    type: 'RequestDelivery',
    delivery: {
      delivery_id: `${type}-${data.taskgroup_id}-${data.completion}`,
      team_id: state.team_id,
      url: state.webhook,
      type,
      payload: {
        type,
        timestamp: data.completed_at,
        data: { ...view, status: { ...view.status, modified_at: data.completed_at } },
      },
      signer: teamStream(state.team_id),
      ...policy,
    },
  };
}
