import type { Decider, DomainEvent } from '../decider';

/**
 * How a task group's runs ended, in the order they ended: a `groupends-<taskgroup id>` stream,
 * kept apart from the group's own (small) stream, which every request folds. A follower of the
 * log records each member run's end here once (apps/webhooks/src/task-group-ends.ts), and, when
 * the group then holds no queued or running run, that it completed. The group's event stream
 * (`GET /v1/tasks/groups/{id}/events`) is this stream: a client resumes it by revision, so each
 * run's end reaches it exactly once; its `task_group.completed` webhook is announced from it.
 */
export const TASK_GROUP_ENDS_PREFIX = 'groupends-';
export const taskGroupEndsStream = (taskgroupId: string): string => `${TASK_GROUP_ENDS_PREFIX}${taskgroupId}`;

export type GroupRunEndStatus = 'completed' | 'failed' | 'cancelled';

export type TaskGroupRunEnded = DomainEvent<
  'TaskGroupRunEnded',
  { run_id: string; seq: number; status: GroupRunEndStatus; ended_at: string }
>;
/** Every run the group had then has ended (`completion` counts these, from 1: runs added later make another). */
export type TaskGroupCompleted = DomainEvent<
  'TaskGroupCompleted',
  {
    taskgroup_id: string;
    completion: number;
    num_task_runs: number;
    counts: Record<GroupRunEndStatus, number>;
    completed_at: string;
  }
>;
export type TaskGroupEndsEvent = TaskGroupRunEnded | TaskGroupCompleted;
export const TASK_GROUP_ENDS_EVENT_TYPES = ['TaskGroupRunEnded', 'TaskGroupCompleted'] as const;

export interface TaskGroupEndsState {
  /** A bit per run number whose end is recorded (a run ends once); copied, never changed in place. */
  ended: Uint8Array;
  ended_count: number;
  counts: Record<GroupRunEndStatus, number>;
  /** Completions recorded, and how many runs the group had at the last. */
  completions: number;
  completed_at_runs: number;
}

export type TaskGroupEndsCommand = {
  type: 'RecordGroupRunEnded';
  taskgroup_id: string;
  run_id: string;
  seq: number;
  status: GroupRunEndStatus;
  /** How many runs the group holds now (its own stream): all ended -> it completed. */
  num_task_runs: number;
};

const NO_ENDS: TaskGroupEndsState = {
  ended: new Uint8Array(0),
  ended_count: 0,
  counts: { completed: 0, failed: 0, cancelled: 0 },
  completions: 0,
  completed_at_runs: 0,
};

export const hasEnded = (state: TaskGroupEndsState, seq: number): boolean =>
  ((state.ended[seq >> 3] ?? 0) & (1 << (seq & 7))) !== 0;

/** The bitmap with `seq` set: a copy (a group of 10,000 runs copies 1,250 bytes per end). */
function withEnded(bits: Uint8Array, seq: number): Uint8Array {
  const next = new Uint8Array(Math.max(bits.length, (seq >> 3) + 1));
  next.set(bits);
  next[seq >> 3] = (next[seq >> 3] ?? 0) | (1 << (seq & 7));
  return next;
}

/**
 * Records a member run's end once (a follower replaying the log decides nothing the second time),
 * and the group's completion when every run it holds has ended.
 */
export const taskGroupEndsDecider: Decider<TaskGroupEndsCommand, TaskGroupEndsEvent, TaskGroupEndsState> = {
  initialState: NO_ENDS,
  decide(command, state, { now }) {
    if (hasEnded(state, command.seq)) return [];
    const ended: TaskGroupRunEnded = {
      type: 'TaskGroupRunEnded',
      data: { run_id: command.run_id, seq: command.seq, status: command.status, ended_at: now },
    };
    const endedCount = state.ended_count + 1;
    if (endedCount < command.num_task_runs) return [ended];
    const counts = { ...state.counts, [command.status]: state.counts[command.status] + 1 };
    return [
      ended,
      {
        type: 'TaskGroupCompleted',
        data: {
          taskgroup_id: command.taskgroup_id,
          completion: state.completions + 1,
          num_task_runs: endedCount,
          counts,
          completed_at: now,
        },
      },
    ];
  },
  evolve(state, event) {
    if (event.type === 'TaskGroupRunEnded') {
      if (hasEnded(state, event.data.seq)) return state;
      return {
        ...state,
        ended: withEnded(state.ended, event.data.seq),
        ended_count: state.ended_count + 1,
        counts: { ...state.counts, [event.data.status]: state.counts[event.data.status] + 1 },
      };
    }
    return { ...state, completions: event.data.completion, completed_at_runs: event.data.num_task_runs };
  },
};
