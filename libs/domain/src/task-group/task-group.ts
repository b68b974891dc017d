import { Conflict, type Decider, type DomainEvent, Invalid, NotFound } from '../decider';
import { Nullable, type Static, StringEnum, Type } from '../schema';

/**
 * Task groups (API.md "Task groups"; Parallel's Task Group API): a list of task runs made and
 * followed together. The group's own stream holds what is the group's (its creation, its metadata,
 * how many runs each request added, its cancel); which runs belong to it each run says itself
 * (`TaskParams.taskgroup_id`), so a run is a member from the moment it exists, whatever fails after.
 */
export const TASK_GROUP_ID_PREFIX = 'tgrp_';
/** Runs one request adds at most. */
export const MAX_GROUP_INPUTS = 1_000;
/** A team's group runs that may wait to start at once (they wait in their groups, not in the team's queue). */
export const MAX_GROUP_RUNS_QUEUED_PER_TEAM = 10_000;

export type GroupMetadata = Record<string, string | number | boolean>;

export type TaskGroupCreated = DomainEvent<
  'TaskGroupCreated',
  {
    taskgroup_id: string;
    team_id: string;
    key_id: string;
    metadata: GroupMetadata | null;
    /** Where `task_group.completed` is POSTed when its runs have all ended (absent: none). */
    webhook?: string | null;
    created_at: string;
  }
>;
/**
 * One request's runs, numbered from `first_seq` in the order given (each run names its number).
 * `batch` names a request sent with an Idempotency-Key (its key and body, hashed): the same request
 * again (a retry after the first was cut off) is given the same numbers, so it makes the same runs.
 */
export type TaskGroupRunsAdded = DomainEvent<
  'TaskGroupRunsAdded',
  { first_seq: number; count: number; added_at: string; batch?: string }
>;
export type TaskGroupCancelled = DomainEvent<'TaskGroupCancelled', { cancelled_at: string }>;
export type TaskGroupEvent = TaskGroupCreated | TaskGroupRunsAdded | TaskGroupCancelled;

export const TASK_GROUP_EVENT_TYPES = ['TaskGroupCreated', 'TaskGroupRunsAdded', 'TaskGroupCancelled'] as const;
export const TASK_GROUP_STREAM_PREFIX = 'taskgroup-';
export const taskGroupStream = (taskgroupId: string): string => `${TASK_GROUP_STREAM_PREFIX}${taskgroupId}`;

export type TaskGroupState =
  | { status: 'absent' }
  | {
      status: 'active' | 'cancelled';
      taskgroup_id: string;
      team_id: string;
      key_id: string;
      metadata: GroupMetadata | null;
      webhook: string | null;
      created_at: string;
      /** The latest change of the group's own (creation, runs added, cancel). */
      modified_at: string;
      /** Runs its requests added (numbered 0 to this - 1). */
      num_task_runs: number;
      /** The first number of each named request's runs, by its `batch`. */
      batches: Record<string, { first_seq: number; count: number }>;
    };

export type TaskGroupCommand =
  | {
      type: 'CreateTaskGroup';
      taskgroup_id: string;
      team_id: string;
      key_id: string;
      metadata: GroupMetadata | null;
      webhook: string | null;
    }
  | { type: 'RecordRunsAdded'; count: number; batch?: string }
  | { type: 'CancelTaskGroup' };

const exists = (state: TaskGroupState) => {
  if (state.status === 'absent') throw new NotFound('task group does not exist');
  return state;
};

export const taskGroupDecider: Decider<TaskGroupCommand, TaskGroupEvent, TaskGroupState> = {
  initialState: { status: 'absent' },
  decide(command, state, { now }) {
    switch (command.type) {
      case 'CreateTaskGroup':
        if (state.status !== 'absent') return [];
        return [
          {
            type: 'TaskGroupCreated',
            data: {
              taskgroup_id: command.taskgroup_id,
              team_id: command.team_id,
              key_id: command.key_id,
              metadata: command.metadata,
              ...(command.webhook && { webhook: command.webhook }),
              created_at: now,
            },
          },
        ];
      case 'RecordRunsAdded': {
        const group = exists(state);
        if (group.status === 'cancelled') throw new Conflict('the task group was cancelled: it takes no more runs');
        if (!Number.isInteger(command.count) || command.count < 1 || command.count > MAX_GROUP_INPUTS)
          throw new Invalid(`a request adds 1 to ${MAX_GROUP_INPUTS} runs`);
        const earlier = command.batch === undefined ? undefined : group.batches[command.batch];
        if (earlier) {
          if (earlier.count !== command.count)
            throw new Conflict(`request ${command.batch} added ${earlier.count} runs, not ${command.count}`);
          return [];
        }
        return [
          {
            type: 'TaskGroupRunsAdded',
            data: {
              first_seq: group.num_task_runs,
              count: command.count,
              added_at: now,
              ...(command.batch !== undefined && { batch: command.batch }),
            },
          },
        ];
      }
      case 'CancelTaskGroup': {
        const group = exists(state);
        return group.status === 'cancelled' ? [] : [{ type: 'TaskGroupCancelled', data: { cancelled_at: now } }];
      }
    }
  },
  evolve(state, event) {
    if (event.type === 'TaskGroupCreated')
      return state.status === 'absent'
        ? {
            status: 'active',
            ...event.data,
            webhook: event.data.webhook ?? null,
            modified_at: event.data.created_at,
            num_task_runs: 0,
            batches: {},
          }
        : state;
    if (state.status === 'absent') return state;
    if (event.type === 'TaskGroupRunsAdded')
      return {
        ...state,
        num_task_runs: state.num_task_runs + event.data.count,
        modified_at: event.data.added_at,
        ...(event.data.batch !== undefined && {
          batches: {
            ...state.batches,
            [event.data.batch]: { first_seq: event.data.first_seq, count: event.data.count },
          },
        }),
      };
    return { ...state, status: 'cancelled', modified_at: event.data.cancelled_at };
  },
};

/** How many of a group's runs are in each status (the runs' read model counts them). */
export const TASK_RUN_STATUS_KEYS = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskRunStatusCounts = Record<(typeof TASK_RUN_STATUS_KEYS)[number], number>;

export const TaskGroupStatusSchema = Type.Object(
  {
    num_task_runs: Type.Integer(),
    task_run_status_counts: Type.Object({
      queued: Type.Integer(),
      running: Type.Integer(),
      completed: Type.Integer(),
      failed: Type.Integer(),
      cancelled: Type.Integer(),
    }),
    is_active: Type.Boolean({ description: 'true while any of its runs is queued or running' }),
    status_message: Nullable(Type.String()),
    modified_at: Type.String(),
  },
  { $id: 'TaskGroupStatus' },
);
export type TaskGroupStatus = Static<typeof TaskGroupStatusSchema>;

export const TaskGroupViewSchema = Type.Object(
  {
    taskgroup_id: Type.String(),
    status: TaskGroupStatusSchema,
    created_at: Type.String(),
    metadata: Nullable(Type.Unsafe<GroupMetadata>({ type: 'object', additionalProperties: true })),
    cancelled: Type.Boolean(),
  },
  { $id: 'TaskGroup' },
);
export type TaskGroupView = Static<typeof TaskGroupViewSchema>;

/** The group's view: its own state and its runs' counts (runs created but not yet projected count as queued). */
export function taskGroupView(state: TaskGroupState, counts: TaskRunStatusCounts): TaskGroupView {
  const group = exists(state);
  const counted = TASK_RUN_STATUS_KEYS.reduce((sum, key) => sum + counts[key], 0);
  const task_run_status_counts = { ...counts, queued: counts.queued + Math.max(0, group.num_task_runs - counted) };
  const is_active = task_run_status_counts.queued + task_run_status_counts.running > 0;
  return {
    taskgroup_id: group.taskgroup_id,
    status: {
      num_task_runs: Math.max(group.num_task_runs, counted),
      task_run_status_counts,
      is_active,
      status_message: group.status === 'cancelled' ? 'cancelled' : null,
      modified_at: group.modified_at,
    },
    created_at: group.created_at,
    metadata: group.metadata,
    cancelled: group.status === 'cancelled',
  };
}

/** A run of a group as its page lists it: its input and output only when asked. */
export const TaskGroupRunSchema = Type.Object(
  {
    run_id: Type.String(),
    status: StringEnum(TASK_RUN_STATUS_KEYS),
    created_at: Type.String(),
    metadata: Nullable(
      Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' } }),
    ),
    input: Type.Optional(Type.String({ description: 'include_input=true: the task as given' })),
    output: Type.Optional(
      Type.Unsafe<unknown>({ description: "include_output=true: the run's output (null until it has one)" }),
    ),
  },
  { $id: 'TaskGroupRun' },
);
export type TaskGroupRun = Static<typeof TaskGroupRunSchema>;
