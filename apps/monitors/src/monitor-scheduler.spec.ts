import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SchedulerRegistry } from '@nestjs/schedule';
import { loadConfig } from '@app/config';
import {
  budgetPeriod,
  keyBudgetDecider,
  keyBudgetStream,
  type TeamCommand,
  teamDecider,
  teamStream,
} from '@app/domain';
import { monitorStream } from '@app/domain/monitor';
import { aggregateStream, handleCommand, SqliteEventStore } from '@app/eventstore';
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
              settings: {
                query: 'q',
                cadence: 'daily',
                cron: null,
                mode: 'diff',
                filter_prompt: null,
                notify_on: ['change'],
                webhook: null,
                webhook_max_attempts: 3,
                webhook_backoff_seconds: 30,
                country: 'us',
                language: 'en',
                metadata: {},
              },
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

describe('MonitorScheduler: scheduled runs of a team at once', () => {
  it('starts at most MAX_CONCURRENT_RUNS_PER_TEAM of a team’s due monitors; the others wait (another team is not held up)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-scheduler-cap-'));
    const store = new SqliteEventStore(path.join(dir, 'events.db'));
    const config = loadConfig({ DATA_DIR: dir, MONITOR_TICK_MS: '3600000', MAX_CONCURRENT_RUNS_PER_TEAM: '2' });
    // A runner that never finishes (its searches hang): the runs it was given stay running.
    const given: string[] = [];
    const runner = {
      run: (monitor: { monitor_id: string }) => (given.push(monitor.monitor_id), new Promise(() => undefined)),
    } as unknown as MonitorRunner;
    const scheduler = new MonitorScheduler(store, config, new MonitorClock(config), runner, new SchedulerRegistry());
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const settings = {
      query: 'q',
      cadence: 'hourly',
      cron: null,
      mode: 'diff',
      filter_prompt: null,
      notify_on: ['change'],
      webhook: null,
      webhook_max_attempts: 3,
      webhook_backoff_seconds: 30,
      country: 'us',
      language: 'en',
      metadata: {},
    };
    const create = (id: string, team: string) =>
      store.append(
        monitorStream(id),
        [
          {
            id: randomUUID(),
            type: 'MonitorCreated',
            data: {
              monitor_id: id,
              team_id: team,
              key_id: 'k',
              request_id: 'r',
              settings,
              status: 'active',
              webhook_secret: null,
              created_at: twoHoursAgo,
            },
          },
        ],
        'no_stream',
      );
    for (let i = 0; i < 5; i++) await create(`mon_a${i}`, 'acme');
    await create('mon_b0', 'beta');
    try {
      await scheduler.onApplicationBootstrap();
      for (let i = 0; i < 200 && given.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 200));
      scheduler.kick();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(given.filter((id) => id.startsWith('mon_a'))).toHaveLength(2);
      expect(given.filter((id) => id.startsWith('mon_b'))).toHaveLength(1);
    } finally {
      await scheduler.beforeApplicationShutdown();
      await store.close();
    }
  });
});

describe("MonitorScheduler and its creator key's budget", () => {
  it('charges scheduled runs against the key that made the monitor: past its budget a run does no work and is an error event saying so', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-scheduler-budget-'));
    const store = new SqliteEventStore(path.join(dir, 'events.db'));
    const config = loadConfig({ DATA_DIR: dir, MONITOR_TICK_MS: '3600000' });
    const team = (command: TeamCommand) => handleCommand(store, teamStream('acme'), teamDecider, command);
    await team({ type: 'CreateTeam', team_id: 'acme', name: 'acme' });
    await team({ type: 'IssueApiKey', key_id: 'k', key_hash: 'h', name: '' });
    await team({ type: 'SetKeyBudget', key_id: 'k', budget: { max_credits: 1, per: 'day' } });
    const searched: string[] = [];
    const runner = {
      run: async (monitor: { monitor_id: string }, event_id: string, slots_covered: number, ran_at: string) => {
        searched.push(monitor.monitor_id);
        const event = {
          event_id,
          monitor_id: monitor.monitor_id,
          ran_at,
          status: 'changed',
          mode: 'diff',
          results_count: 0,
          results: [],
          added: [],
          removed: [],
          matched: null,
          error: null,
          slots_covered,
        };
        return { event, renders: 0 };
      },
    } as unknown as MonitorRunner;
    const scheduler = new MonitorScheduler(store, config, new MonitorClock(config), runner, new SchedulerRegistry());
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
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
              key_id: 'k',
              request_id: 'r',
              settings: {
                query: 'q',
                cadence: 'hourly',
                cron: null,
                mode: 'diff',
                filter_prompt: null,
                notify_on: ['change'],
                webhook: null,
                webhook_max_attempts: 3,
                webhook_backoff_seconds: 30,
                country: 'us',
                language: 'en',
                metadata: {},
              },
              status: 'active',
              webhook_secret: null,
              created_at: twoHoursAgo,
            },
          },
        ],
        'no_stream',
      );
    await create('mon_1');
    await create('mon_2');
    const recorded = async () => {
      const events = [
        ...(await store.readStream(monitorStream('mon_1'))),
        ...(await store.readStream(monitorStream('mon_2'))),
      ];
      return events.filter((e) => e.type === 'MonitorEventRecorded' || e.type === 'CreditsCharged');
    };
    try {
      await scheduler.onApplicationBootstrap();
      for (let i = 0; i < 300 && (await recorded()).filter((e) => e.type === 'MonitorEventRecorded').length < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const events = await recorded();
      const runs = events
        .filter((e) => e.type === 'MonitorEventRecorded')
        .map((e) => (e.data as { event: { status: string; error: string | null } }).event);
      expect(runs.map((r) => r.status).sort()).toEqual(['changed', 'error']);
      expect(runs.find((r) => r.status === 'error')?.error).toMatch(
        /^this key's budget of 1 credits per day has 0 left: 1 spent; it resets at /,
      );
      expect(events.filter((e) => e.type === 'CreditsCharged').map((e) => Number(e.data.credits))).toEqual([1]);
      const budget = keyBudgetStream('acme', 'k', budgetPeriod('day', new Date()).id);
      expect((await aggregateStream(store, budget, keyBudgetDecider)).state.spent).toBe(1);
    } finally {
      await scheduler.beforeApplicationShutdown();
      await store.close();
    }
  });
});
