import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lifecycleNames, streamOf } from '@app/domain/run';
import { searchRuns } from '@app/domain/search-run';
import { SqliteEventStore } from '@app/eventstore';
import { FaultyEventStore } from '../../eventstore/src/testing/faulty-event-store';
import { RunRegistry } from './run-registry';

describe('RunRegistry when its subscription drops', () => {
  it('takes it up again and keeps seeing new runs (it used to stop for good, with an unobserved rejection)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-registry-'));
    const store = new FaultyEventStore(new SqliteEventStore(path.join(dir, 'events.db')));
    const drops: unknown[] = [];
    const registry = new RunRegistry(
      store,
      [searchRuns],
      () => undefined,
      (error) => drops.push(error),
    );
    const request = (runId: string) =>
      store.append(
        streamOf(searchRuns, runId),
        [
          {
            id: randomUUID(),
            type: lifecycleNames(searchRuns.prefix).requested,
            data: {
              search_id: runId,
              team_id: 'acme',
              key_id: 'k',
              request_id: 'r',
              params: {},
              requested_at: new Date().toISOString(),
            },
          },
        ],
        'no_stream',
      );
    const seen = async (runId: string) => {
      for (let i = 0; i < 500 && !registry.runs.has(streamOf(searchRuns, runId)); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return registry.runs.has(streamOf(searchRuns, runId));
    };
    try {
      await request('search_before');
      await registry.start();
      expect(await seen('search_before')).toBe(true);
      await request('search_live');
      expect(await seen('search_live')).toBe(true);
      expect(store.dropSubscriptions()).toBe(1);
      await request('search_after_drop');
      expect(await seen('search_after_drop')).toBe(true);
      expect(drops).toHaveLength(1);
    } finally {
      await registry.stop();
      await store.close();
    }
  });
});

describe('RunRegistry folding each run with its kind decider', () => {
  it('follows a run to its end, forgets it, and reads a reopened one back from its stream', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-registry-fold-'));
    const store = new SqliteEventStore(path.join(dir, 'events.db'));
    const changes: (string | undefined)[] = [];
    const registry = new RunRegistry(store, [searchRuns], (run) => changes.push(run?.status));
    const names = lifecycleNames(searchRuns.prefix);
    const stream = streamOf(searchRuns, 'search_r');
    const append = (type: string, data: Record<string, unknown>) =>
      store.append(stream, [{ id: randomUUID(), type, data }], 'any');
    try {
      await append(names.requested, {
        search_id: 'search_r',
        team_id: 'acme',
        key_id: 'k',
        request_id: 'r',
        params: {},
        requested_at: '2026-11-26T12:00:00.000Z',
      });
      await append(names.started, {
        worker_id: 'w1',
        lease_until: '2026-11-26T12:01:00.000Z',
        started_at: '2026-11-26T12:00:00.000Z',
        resumed: false,
      });
      await append(names.completed, { completed_at: '2026-11-26T12:00:30.000Z' });
      const reopened = await append(names.reopened, {
        team_id: 'acme',
        reason: 'extend',
        detail: {},
        reopened_at: '2026-11-26T12:05:00.000Z',
      });
      await registry.start();
      const run = registry.runs.get(stream);
      expect(run).toMatchObject({
        status: 'queued',
        team_id: 'acme',
        run_id: 'search_r',
        worker_id: null,
        cancel_requested: false,
      });
      expect(run?.requested_at).toBe(reopened.position);
      expect(changes).toEqual(['queued', 'running', undefined, 'queued']);
    } finally {
      await registry.stop();
      await store.close();
    }
  });
});
