import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  budgetPeriod,
  keyBudgetDecider,
  keyBudgetStream,
  type TeamCommand,
  teamDecider,
  teamStream,
} from '@app/domain';
import { lifecycleNames, streamOf } from '@app/domain/run';
import { searchRuns } from '@app/domain/search-run';
import { aggregateStream, handleCommand, SqliteEventStore } from '@app/eventstore';
import { params, record } from '../../domain/src/testing/search-run.fixtures';
import { type RunExecutor, RunWorker } from './run-worker';

describe('RunWorker takeover across replicas whose clocks disagree', () => {
  it('never takes a run from a holder that is still heartbeating, even with its wall clock an hour ahead', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-worker-skew-'));
    const store = new SqliteEventStore(path.join(dir, 'events.db'));
    // Work that lasts until the worker stops it.
    const executor: RunExecutor = {
      kind: searchRuns,
      execute: (run) =>
        new Promise<void>((resolve) => {
          const timer = setInterval(() => run.stopped() && (clearInterval(timer), resolve()), 20);
        }),
    };
    const options = { leaseSeconds: 1, maxConcurrentRunsPerTeam: 4, tickMs: 50, drainMs: 100 };
    const a = new RunWorker(store, [searchRuns], [executor], { ...options, workerId: 'a' });
    const ahead = new RunWorker(store, [searchRuns], [executor], {
      ...options,
      workerId: 'ahead',
      clock: () => Date.now() + 3_600_000,
    });
    const stream = streamOf(searchRuns, 'search_skew');
    try {
      await a.start();
      await store.append(
        stream,
        [
          {
            id: randomUUID(),
            type: lifecycleNames(searchRuns.prefix).requested,
            data: {
              search_id: 'search_skew',
              team_id: 'acme',
              key_id: 'k',
              request_id: 'r',
              params: { queries: ['q'] },
              requested_at: new Date().toISOString(),
            },
          },
        ],
        'no_stream',
      );
      for (let i = 0; i < 100 && !a.working.includes(stream); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(a.working).toEqual([stream]);
      await ahead.start();
      // Three leases long: the holder heartbeats all along.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const starts = (await store.readStream(stream))
        .filter((e) => e.type === lifecycleNames(searchRuns.prefix).started)
        .map((e) => (e.data as { worker_id: string }).worker_id);
      expect(starts).toEqual(['a']);
      expect(ahead.working).toEqual([]);
    } finally {
      await ahead.stop();
      await a.stop();
      await store.close();
    }
  });
});

describe('RunWorker and the key budget', () => {
  it("charges runs against their key's budget on the log: two runs of 2 credits on a budget of 3 are charged 3, the second ends budget_exhausted", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-worker-budget-'));
    const store = new SqliteEventStore(path.join(dir, 'events.db'));
    const team = (command: TeamCommand) => handleCommand(store, teamStream('acme'), teamDecider, command);
    await team({ type: 'CreateTeam', team_id: 'acme', name: 'acme' });
    await team({ type: 'IssueApiKey', key_id: 'k', key_hash: 'h', name: '' });
    await team({ type: 'SetKeyBudget', key_id: 'k', budget: { max_credits: 3, per: 'day' } });
    // Each run writes its report and ends: a deep run of two queries is charged 2 on completion.
    const executor: RunExecutor = {
      kind: searchRuns,
      execute: async (run) => {
        await run.record(record('RecordReport', run.workerId) as never);
      },
    };
    const worker = new RunWorker(store, [searchRuns], [executor], {
      workerId: 'w',
      leaseSeconds: 5,
      maxConcurrentRunsPerTeam: 1,
      tickMs: 20,
      drainMs: 100,
    });
    const names = lifecycleNames(searchRuns.prefix);
    const request = (id: string) =>
      store.append(
        streamOf(searchRuns, id),
        [
          {
            id: randomUUID(),
            type: names.requested,
            data: {
              search_id: id,
              team_id: 'acme',
              key_id: 'k',
              request_id: id,
              params: { ...params, queries: ['a', 'b'] },
              requested_at: new Date().toISOString(),
            },
          },
        ],
        'no_stream',
      );
    try {
      await worker.start();
      await request('search_b1');
      await request('search_b2');
      const ended = async (id: string) => {
        for (let i = 0; i < 250; i++) {
          const events = await store.readStream(streamOf(searchRuns, id));
          const end = events.find((e) => e.type === names.completed || e.type === names.failed);
          if (end) return { end, events };
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error(`${id} did not end`);
      };
      const runs = [await ended('search_b1'), await ended('search_b2')];
      const credits = runs.map(({ events }) =>
        events.filter((e) => e.type === 'CreditsCharged').reduce((sum, e) => sum + Number(e.data.credits), 0),
      );
      expect(runs.map(({ end }) => end.type)).toEqual([names.completed, names.completed]);
      expect(credits).toEqual([2, 1]);
      expect(runs.map(({ end }) => (end.data as { termination_reason?: string }).termination_reason)).toEqual([
        undefined,
        'budget_exhausted',
      ]);
      const budget = keyBudgetStream('acme', 'k', budgetPeriod('day', new Date()).id);
      expect((await aggregateStream(store, budget, keyBudgetDecider)).state.spent).toBe(3);
    } finally {
      await worker.stop();
      await store.close();
    }
  });
});
