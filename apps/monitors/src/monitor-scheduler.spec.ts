import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SchedulerRegistry } from '@nestjs/schedule';
import { loadConfig } from '@app/config';
import { monitorStream } from '@app/domain/monitor';
import { SqliteEventStore } from '@app/eventstore';
import { FaultyEventStore } from '../../../libs/eventstore/src/testing/faulty-event-store';
import { MonitorClock } from './monitor-clock';
import type { MonitorRunner } from './monitor-runner';
import { MonitorScheduler } from './monitor-scheduler';

describe('MonitorScheduler when its subscription drops', () => {
  it('takes it up again and keeps folding monitors (it used to stop for good)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-scheduler-'));
    const store = new FaultyEventStore(new SqliteEventStore(path.join(dir, 'events.db')));
    const config = loadConfig({ DATA_DIR: dir, MONITOR_TICK_MS: '3600000' });
    // No monitor falls due in this test: the runner (a stand-in) must never be called.
    const runner = { run: () => Promise.reject(new Error('no run expected')) } as unknown as MonitorRunner;
    const scheduler = new MonitorScheduler(store, config, new MonitorClock(config), runner, new SchedulerRegistry());
    const create = (id: string) =>
      store.append(
        monitorStream(id),
        [
          {
            id: randomUUID(),
            type: 'MonitorCreated',
            data: {
              monitor_id: id,
              team_id: 'acme',
              key_id: 'k1',
              request_id: 'r1',
              settings: { query: 'q', cadence: 'daily', cron: null, mode: 'diff', filter_prompt: null, notify_on: ['change'], webhook: null, webhook_max_attempts: 3, webhook_backoff_seconds: 30, country: 'us', language: 'en', metadata: {} },
              status: 'active',
              webhook_secret: null,
              created_at: new Date().toISOString(),
            },
          },
        ],
        'no_stream',
      );
    const known = async (id: string) => {
      for (let i = 0; i < 500 && !scheduler.state(id); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return scheduler.state(id) !== undefined;
    };
    try {
      await scheduler.onApplicationBootstrap();
      await create('mon_live');
      expect(await known('mon_live')).toBe(true);
      expect(store.dropSubscriptions()).toBe(1);
      await create('mon_after_drop');
      expect(await known('mon_after_drop')).toBe(true);
    } finally {
      await scheduler.beforeApplicationShutdown();
      await store.close();
    }
  });
});
