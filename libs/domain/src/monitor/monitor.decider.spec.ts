import { specFor, testContext } from '../testing/given-when-then';
import { type MonitorCommand, monitorDecider, settingsProblem } from './monitor.decider';
import type { MonitorEvent, MonitorEventType, MonitorSettings } from './monitor.events';
import { cronProblem, dueSlots, nextSlot } from './monitor.schedule';
import { monitorView } from './monitor.view';
import { monitorEvent } from './monitor.diff';

const T0 = '2026-01-01T00:00:00.000Z';
const at = (iso: string) => specFor(monitorDecider, () => testContext(iso));
const hours = (n: number) => new Date(Date.parse(T0) + n * 3_600_000).toISOString();

const settings: MonitorSettings = {
  url: null,
  query: 'sodium-ion battery',
  cadence: 'hourly',
  cron: null,
  mode: 'diff',
  filter_prompt: null,
  notify_on: ['change', 'match', 'error'],
  webhook: null,
  webhook_max_attempts: 3,
  webhook_backoff_seconds: 30,
  country: 'us',
  language: 'en',
  metadata: {},
};
const created: MonitorEventType = {
  type: 'MonitorCreated',
  data: {
    monitor_id: 'm1',
    team_id: 'acme',
    key_id: 'k1',
    request_id: 'r1',
    settings,
    status: 'active',
    webhook_secret: null,
    created_at: T0,
  },
};
const start = (event_id = 'e1'): MonitorCommand => ({
  type: 'StartScheduledRun',
  event_id,
  worker_id: 'w1',
  lease_seconds: 15,
});
const runStarted = (
  event_id: string,
  slot: string | null,
  slots: number,
  now: string,
  trigger: 'schedule' | 'manual' = 'schedule',
): MonitorEventType => ({
  type: 'MonitorRunStarted',
  data: {
    event_id,
    trigger,
    slot,
    slots_covered: slots,
    started_at: now,
    worker_id: 'w1',
    lease_until: new Date(Date.parse(now) + 15_000).toISOString(),
  },
});
const event = (event_id: string, status: MonitorEvent['status'] = 'changed'): MonitorEvent => ({
  event_id,
  monitor_id: 'm1',
  ran_at: hours(1),
  status,
  mode: 'diff',
  results_count: 0,
  results: [],
  added: [],
  removed: [],
  matched: null,
  error: status === 'error' ? 'boom' : null,
  slots_covered: 1,
});

describe('monitor schedule', () => {
  it('cadence slots count from creation; due slots in (after, now]', () => {
    const s = { cadence: 'hourly' as const, cron: null, anchor: T0 };
    expect(nextSlot(s, T0)).toBe(hours(1));
    expect(nextSlot(s, hours(1))).toBe(hours(2));
    expect(dueSlots(s, T0, hours(0.5))).toEqual({ count: 0, latest: null });
    expect(dueSlots(s, T0, hours(1))).toEqual({ count: 1, latest: hours(1) });
    expect(dueSlots(s, hours(1), hours(5.5))).toEqual({ count: 4, latest: hours(5) });
  });
  it('cron is read in UTC', () => {
    const s = { cadence: 'daily' as const, cron: '30 9 * * 1', anchor: T0 }; // Mondays 09:30
    expect(nextSlot(s, T0)).toBe('2026-01-05T09:30:00.000Z');
    expect(dueSlots(s, T0, '2026-01-20T00:00:00.000Z')).toEqual({ count: 3, latest: '2026-01-19T09:30:00.000Z' });
  });
  it('refuses cron expressions that are not 5 valid fields', () => {
    expect(cronProblem('0 * * * *')).toBeNull();
    expect(cronProblem('0 0 * * * *')).toMatch(/5 fields/);
    expect(cronProblem('0 0 31 2 *')).toMatch(/never runs/);
    expect(cronProblem('61 * * * *')).toMatch(/out of range/);
    expect(settingsProblem({ cron: 'every day' })).toMatch(/cron/);
  });
});

describe('monitor decider', () => {
  it('creating does not run it; the first slot is one cadence after creation', () => {
    at(T0)([created]).when(start()).then([]);
    at(hours(0.99))([created]).when(start()).then([]);
    expect(monitorView([created].reduce(monitorDecider.evolve, monitorDecider.initialState)).nextRunAt).toBe(hours(1));
  });
  it('a due slot starts one run; once started, the same slot decides nothing (exactly once across replicas)', () => {
    const first = runStarted('e1', hours(1), 1, hours(1));
    at(hours(1))([created]).when(start('e1')).then([first]);
    at(hours(1))([created, first]).when(start('e2')).then([]);
    const done: MonitorEventType = { type: 'MonitorEventRecorded', data: { event: event('e1') } };
    at(hours(1.5))([created, first, done]).when(start('e3')).then([]);
  });
  it('a replica that was down catches up with one run standing for every missed slot', () => {
    at(hours(5.2))([created])
      .when(start('e1'))
      .then([runStarted('e1', hours(5), 5, hours(5.2))]);
  });
  it('paused: no scheduled run, nextRunAt null; resume skips the slots that fell due while paused', () => {
    const paused: MonitorEventType = { type: 'MonitorPaused', data: { paused_at: hours(0.5) } };
    at(hours(3))([created, paused]).when(start()).then([]);
    const resumed: MonitorEventType = { type: 'MonitorResumed', data: { resumed_at: hours(3.5) } };
    const state = [created, paused].reduce(monitorDecider.evolve, monitorDecider.initialState);
    expect(monitorView(state).nextRunAt).toBeNull();
    at(hours(3.6))([created, paused, resumed]).when(start()).then([]);
    at(hours(4))([created, paused, resumed])
      .when(start('e1'))
      .then([runStarted('e1', hours(4), 1, hours(4))]);
    at(hours(3))([created, paused]).when({ type: 'PauseMonitor' }).then([]);
  });
  it('a manual run works while paused; one in progress refuses another', () => {
    const paused: MonitorEventType = { type: 'MonitorPaused', data: { paused_at: hours(0.5) } };
    const manual = runStarted('e1', null, 1, hours(1), 'manual');
    at(hours(1))([created, paused])
      .when({ type: 'StartManualRun', event_id: 'e1', worker_id: 'w1', lease_seconds: 15 })
      .then([manual]);
    at(hours(1))([created, paused, manual])
      .when({ type: 'StartManualRun', event_id: 'e2', worker_id: 'w1', lease_seconds: 15 })
      .thenThrows({ refusal: 'conflict' });
  });
  it('records the event with one credit; an error run is not charged', () => {
    const first = runStarted('e1', hours(1), 1, hours(1));
    at(hours(1))([created, first])
      .when({ type: 'RecordMonitorEvent', worker_id: 'w1', event: event('e1') })
      .then([
        { type: 'MonitorEventRecorded', data: { event: event('e1') } },
        {
          type: 'CreditsCharged',
          data: {
            team_id: 'acme',
            request_id: 'e1',
            items: [{ sku: 'sku_monitor_run', quantity: 1, credits: 1 }],
            credits: 1,
            at: hours(1),
          },
        },
      ]);
    at(hours(1))([created, first])
      .when({ type: 'RecordMonitorEvent', worker_id: 'w1', event: event('e1', 'error') })
      .then([{ type: 'MonitorEventRecorded', data: { event: event('e1', 'error') } }]);
    at(hours(1))([created, first])
      .when({ type: 'RecordMonitorEvent', worker_id: 'w2', event: event('e1') })
      .thenThrows({ refusal: 'conflict' });
  });
  it("charges the pages a run rendered in the browser (sku_render), an error run's too", () => {
    const first = runStarted('e1', hours(1), 1, hours(1));
    at(hours(1))([created, first])
      .when({ type: 'RecordMonitorEvent', worker_id: 'w1', event: event('e1'), renders: 1 })
      .then([
        { type: 'MonitorEventRecorded', data: { event: event('e1') } },
        {
          type: 'CreditsCharged',
          data: {
            team_id: 'acme',
            request_id: 'e1',
            items: [
              { sku: 'sku_monitor_run', quantity: 1, credits: 1 },
              { sku: 'sku_render', quantity: 1, credits: 1 },
            ],
            credits: 2,
            at: hours(1),
          },
        },
      ]);
    at(hours(1))([created, first])
      .when({ type: 'RecordMonitorEvent', worker_id: 'w1', event: event('e1', 'error'), renders: 1 })
      .then([
        { type: 'MonitorEventRecorded', data: { event: event('e1', 'error') } },
        {
          type: 'CreditsCharged',
          data: {
            team_id: 'acme',
            request_id: 'e1',
            items: [{ sku: 'sku_render', quantity: 1, credits: 1 }],
            credits: 1,
            at: hours(1),
          },
        },
      ]);
  });
  it('another worker takes over a run whose lease lapsed', () => {
    const first = runStarted('e1', hours(1), 1, hours(1));
    at(hours(1))([created, first])
      .when({ type: 'TakeOverRun', worker_id: 'w2', lease_seconds: 15 })
      .thenThrows({ refusal: 'conflict' });
    const later = new Date(Date.parse(hours(1)) + 16_000).toISOString();
    at(later)([created, first])
      .when({ type: 'TakeOverRun', worker_id: 'w2', lease_seconds: 15 })
      .then([
        {
          type: 'MonitorRunTakenOver',
          data: {
            event_id: 'e1',
            worker_id: 'w2',
            lease_until: new Date(Date.parse(later) + 15_000).toISOString(),
            at: later,
          },
        },
      ]);
  });
  it('webhook outcomes set the delivery fields once each', () => {
    const outcome: MonitorCommand = {
      type: 'RecordWebhookOutcome',
      event_id: 'e1',
      delivery_id: 'd1',
      attempt: 1,
      status: 500,
      error: 'HTTP 500',
      delivered: false,
      final: false,
    };
    const recorded: MonitorEventType = {
      type: 'MonitorWebhookOutcome',
      data: {
        event_id: 'e1',
        delivery_id: 'd1',
        attempt: 1,
        status: 500,
        error: 'HTTP 500',
        delivered: false,
        final: false,
        at: T0,
      },
    };
    at(T0)([created]).when(outcome).then([recorded]);
    at(T0)([created, recorded]).when(outcome).then([]);
    const view = monitorView([created, recorded].reduce(monitorDecider.evolve, monitorDecider.initialState));
    expect(view).toMatchObject({
      last_webhook_status: 500,
      last_webhook_error: 'HTTP 500',
      last_webhook_at: Date.parse(T0) / 1000,
    });
  });
  it('a deleted monitor is a 404 for every command but its history stays', () => {
    const deleted: MonitorEventType = { type: 'MonitorDeleted', data: { deleted_at: T0 } };
    at(T0)([created, deleted]).when({ type: 'PauseMonitor' }).thenThrows({ refusal: 'not_found' });
    at(T0)([created, deleted]).when({ type: 'DeleteMonitor' }).thenThrows({ refusal: 'not_found' });
    at(hours(2))([created, deleted]).when(start()).then([]);
  });
});

describe('monitor events', () => {
  const row = (url: string) => ({ url, title: url, snippet: '', date: null, domain: 'a.test', score: 1 });
  const base = { event_id: 'e', monitor_id: 'm1', ran_at: T0, slots_covered: 1, key: (u: string) => u.toLowerCase() };
  it('diff: the first run reports every row as added; then added and removed by URL', () => {
    expect(
      monitorEvent({ ...base, mode: 'diff', rows: [row('a'), row('b')], previous: null, kept: null }),
    ).toMatchObject({ status: 'changed', added: [row('a'), row('b')], removed: [] });
    expect(
      monitorEvent({ ...base, mode: 'diff', rows: [row('b'), row('c')], previous: [row('a'), row('B')], kept: null }),
    ).toMatchObject({ status: 'changed', added: [row('c')], removed: [row('a')] });
    expect(monitorEvent({ ...base, mode: 'diff', rows: [row('a')], previous: [row('a')], kept: null })).toMatchObject({
      status: 'unchanged',
      added: [],
      removed: [],
    });
  });
  it('snapshot: full rows, changed when the set differs', () => {
    expect(
      monitorEvent({ ...base, mode: 'snapshot', rows: [row('a')], previous: [row('a')], kept: null }),
    ).toMatchObject({ status: 'unchanged', results: [row('a')], added: [], removed: [] });
    expect(
      monitorEvent({ ...base, mode: 'snapshot', rows: [row('b')], previous: [row('a')], kept: null }),
    ).toMatchObject({ status: 'changed', results: [row('b')] });
  });
  it('a filter keeps the rows where it held; matched wins over changed', () => {
    expect(
      monitorEvent({ ...base, mode: 'diff', rows: [row('a'), row('b')], previous: null, kept: [false, true] }),
    ).toMatchObject({ status: 'matched', matched: true, results: [row('b')], results_count: 1 });
    expect(monitorEvent({ ...base, mode: 'diff', rows: [row('a')], previous: null, kept: [false] })).toMatchObject({
      status: 'unchanged',
      matched: false,
      results: [],
    });
  });
});
