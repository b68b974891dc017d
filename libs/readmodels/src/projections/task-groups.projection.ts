import {
  type TaskGroupEvent,
  taskGroupDecider,
  type TaskGroupState,
  TASK_GROUP_EVENT_TYPES,
  TASK_GROUP_STREAM_PREFIX,
} from '@app/domain';
import type { Projection } from '../projection';

/** `task_groups`: one document per task group, its state as the group's decider folds it (API.md "Task groups"). */
export const TASK_GROUPS = 'task_groups';

export interface TaskGroupDoc {
  team_id: string;
  created_at: string;
  state: TaskGroupState;
}

export const taskGroupsProjection: Projection = {
  name: TASK_GROUPS,
  version: 1,
  eventTypes: [...TASK_GROUP_EVENT_TYPES],
  filter: { streamPrefixes: [TASK_GROUP_STREAM_PREFIX] },
  collection: TASK_GROUPS,
  versionBy: 'revision',
  indexes: ['team_id'],
  ids: (event) => [event.stream.slice(TASK_GROUP_STREAM_PREFIX.length)],
  apply(doc, event) {
    const previous = (doc as TaskGroupDoc | undefined)?.state ?? taskGroupDecider.initialState;
    const state = taskGroupDecider.evolve(previous, { type: event.type, data: event.data } as TaskGroupEvent);
    if (state === previous || state.status === 'absent') return doc;
    const next: TaskGroupDoc = { team_id: state.team_id, created_at: state.created_at, state };
    return { ...next };
  },
};
