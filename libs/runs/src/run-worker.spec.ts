import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lifecycleNames, streamOf } from '@app/domain/run';
import { searchRuns } from '@app/domain/search-run';
import { SqliteEventStore } from '@app/eventstore';
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
