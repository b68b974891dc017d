import { fold } from '../decider';
import { record as recordAll } from '../testing/given-when-then';
import { hasEnded, type TaskGroupEndsCommand, taskGroupEndsDecider } from './task-group-ends';

const end = (seq: number, num_task_runs: number, status: 'completed' | 'failed' | 'cancelled' = 'completed') =>
  ({
    type: 'RecordGroupRunEnded',
    taskgroup_id: 'tgrp_1',
    run_id: `trun_${seq}`,
    seq,
    status,
    num_task_runs,
  }) satisfies TaskGroupEndsCommand;

const record = (commands: TaskGroupEndsCommand[]) => recordAll(taskGroupEndsDecider, commands);

describe('task group ends', () => {
  it('records each run end once and completes the group with its last, counted by how each ended', () => {
    const { events, state } = record([end(2, 3), end(0, 3, 'failed'), end(2, 3), end(1, 3)]);
    expect(events.map((e) => e.type)).toEqual([
      'TaskGroupRunEnded',
      'TaskGroupRunEnded',
      'TaskGroupRunEnded',
      'TaskGroupCompleted',
    ]);
    expect(events[3]!.data).toMatchObject({
      completion: 1,
      num_task_runs: 3,
      counts: { completed: 2, failed: 1, cancelled: 0 },
    });
    expect(state.ended_count).toBe(3);
    expect([0, 1, 2, 3].map((seq) => hasEnded(state, seq))).toEqual([true, true, true, false]);
  });

  it('completes again when runs added after its completion end', () => {
    const { events } = record([end(0, 1), end(1, 3), end(2, 3, 'cancelled')]);
    const completions = events.filter((e) => e.type === 'TaskGroupCompleted');
    expect(completions.map((e) => e.data)).toMatchObject([
      { completion: 1, num_task_runs: 1, counts: { completed: 1 } },
      { completion: 2, num_task_runs: 3, counts: { completed: 2, cancelled: 1 } },
    ]);
  });

  it('folds to the same state however often it is folded, and never changes a state it was given', () => {
    const { events } = record(Array.from({ length: 40 }, (_, i) => end((i * 7) % 40, 40)));
    const once = fold(taskGroupEndsDecider, events);
    const middle = fold(taskGroupEndsDecider, events.slice(0, 20));
    const bitsBefore = Array.from(middle.ended);
    const twice = events.slice(20).reduce(taskGroupEndsDecider.evolve, middle);
    expect(Array.from(middle.ended)).toEqual(bitsBefore);
    expect(twice.ended_count).toBe(40);
    expect(once.counts).toEqual({ completed: 40, failed: 0, cancelled: 0 });
    // A replayed end changes nothing.
    expect(taskGroupEndsDecider.evolve(once, events[0]!)).toBe(once);
  });
});
