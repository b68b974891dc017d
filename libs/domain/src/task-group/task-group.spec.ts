import { Conflict } from '../decider';
import { record as recordAll, testContext } from '../testing/given-when-then';

const ctx = testContext();
import { type TaskGroupCommand, taskGroupDecider } from './task-group';

const create: TaskGroupCommand = {
  type: 'CreateTaskGroup',
  taskgroup_id: 'tgrp_1',
  team_id: 'team_1',
  key_id: 'key_1',
  metadata: null,
  webhook: null,
};

const record = (commands: TaskGroupCommand[]) => recordAll(taskGroupDecider, commands);

describe('task group runs added', () => {
  it('numbers each request after the ones before', () => {
    const { events, state } = record([
      create,
      { type: 'RecordRunsAdded', count: 3 },
      { type: 'RecordRunsAdded', count: 2, batch: 'b1' },
    ]);
    expect(events.filter((e) => e.type === 'TaskGroupRunsAdded').map((e) => e.data)).toEqual([
      { first_seq: 0, count: 3, added_at: expect.any(String) },
      { first_seq: 3, count: 2, added_at: expect.any(String), batch: 'b1' },
    ]);
    expect(state).toMatchObject({ num_task_runs: 5, batches: { b1: { first_seq: 3, count: 2 } } });
  });

  it('gives a named request made again the numbers it had, and records nothing', () => {
    const { state } = record([create, { type: 'RecordRunsAdded', count: 2, batch: 'b1' }]);
    expect(taskGroupDecider.decide({ type: 'RecordRunsAdded', count: 2, batch: 'b1' }, state, ctx)).toEqual([]);
    // A request without a name is always new.
    expect(taskGroupDecider.decide({ type: 'RecordRunsAdded', count: 2 }, state, ctx)).toHaveLength(1);
  });

  it('refuses a named request made again with another number of runs', () => {
    const { state } = record([create, { type: 'RecordRunsAdded', count: 2, batch: 'b1' }]);
    expect(() => taskGroupDecider.decide({ type: 'RecordRunsAdded', count: 3, batch: 'b1' }, state, ctx)).toThrow(
      Conflict,
    );
  });
});
