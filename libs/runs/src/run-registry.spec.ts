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
    const registry = new RunRegistry(store, [searchRuns], () => undefined, (error) => drops.push(error));
    const request = (runId: string) =>
      store.append(streamOf(searchRuns, runId), [{ id: randomUUID(), type: lifecycleNames(searchRuns.prefix).requested, data: { search_id: runId, team_id: 'acme', key_id: 'k', request_id: 'r', params: {}, requested_at: new Date().toISOString() } }], 'no_stream');
    const seen = async (runId: string) => {
      for (let i = 0; i < 500 && !registry.runs.has(streamOf(searchRuns, runId)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
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
