import { type DecideContext, type Decider, Conflict, Invalid, NotFound } from '../decider';
import { lineItems, totalCredits } from '../pricing';
import type { MonitorEvent, MonitorEventType, MonitorRow, MonitorSettings, SealedSecret } from './monitor.events';
import { cronProblem, dueSlots } from './monitor.schedule';

export interface MonitorRun {
  event_id: string;
  worker_id: string;
  lease_until: string;
  trigger: 'schedule' | 'manual';
  slot: string | null;
  slots_covered: number;
  started_at: string;
}

export interface MonitorRecord {
  monitor_id: string;
  team_id: string;
  key_id: string;
  settings: MonitorSettings;
  webhook_secret: SealedSecret | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  runs: number;
  last_run_at: string | null;
  /** The latest due slot a run has covered (or the time scheduling restarted from): the next slot comes after it. */
  scheduled_through: string;
  running: MonitorRun | null;
  /** The previous run's rows: what the next diff compares with. */
  last_results: MonitorRow[] | null;
  /** A page monitor's previous content: what the next diff compares with. */
  last_content: string | null;
  last_result: { event_id: string; results_count: number; ran_at: string; status: MonitorEvent['status'] } | null;
  last_webhook_status: number | null;
  last_webhook_at: number | null;
  last_webhook_error: string | null;
  /** Webhook outcomes already recorded (`delivery#attempt`), the latest ones: a repeated report decides nothing. */
  webhook_outcomes: string[];
}

export type MonitorState = { status: 'absent' } | (MonitorRecord & { status: 'active' | 'paused' | 'deleted' });
type Existing = Exclude<MonitorState, { status: 'absent' }>;

export type MonitorCommand =
  | {
      type: 'CreateMonitor';
      monitor_id: string;
      team_id: string;
      key_id: string;
      request_id: string;
      settings: MonitorSettings;
      status: 'active' | 'paused';
      webhook_secret: SealedSecret | null;
    }
  | { type: 'UpdateMonitor'; settings: Partial<MonitorSettings>; webhook_secret?: SealedSecret | null }
  | { type: 'PauseMonitor' }
  | { type: 'ResumeMonitor' }
  | { type: 'DeleteMonitor' }
  /** The scheduler's due check: a run when at least one slot is due (at `now`), none otherwise. */
  | { type: 'StartScheduledRun'; event_id: string; worker_id: string; lease_seconds: number }
  | { type: 'StartManualRun'; event_id: string; worker_id: string; lease_seconds: number }
  | { type: 'TakeOverRun'; worker_id: string; lease_seconds: number }
  /** `renders`: pages the run rendered in the browser (absent: none), each charged `sku_render`. */
  | { type: 'RecordMonitorEvent'; worker_id: string; event: MonitorEvent; renders?: number }
  | {
      type: 'RecordWebhookOutcome';
      event_id: string;
      delivery_id: string;
      attempt: number;
      status: number | null;
      error: string | null;
      delivered: boolean;
      final: boolean;
    };

type Cmd<T extends MonitorCommand['type']> = Extract<MonitorCommand, { type: T }>;

const OUTCOMES_KEPT = 50;

const live = (state: MonitorState, noun = 'monitor'): Existing => {
  if (state.status === 'absent' || state.status === 'deleted') throw new NotFound(`${noun} does not exist`);
  return state;
};

const leaseUntil = (now: string, seconds: number) => new Date(Date.parse(now) + seconds * 1000).toISOString();
const leaseLive = (run: MonitorRun, now: string) => Date.parse(now) < Date.parse(run.lease_until);

export function settingsProblem(settings: Partial<MonitorSettings>): string | null {
  if (settings.query !== undefined && !settings.query.trim()) return 'query must be at least 1 character';
  if (settings.url !== undefined && settings.url !== null) {
    if (!/^https?:\/\/\S+$/i.test(settings.url)) return 'url must be an http(s) URL';
    if (settings.filter_prompt) return 'a page monitor (url) takes no filter_prompt';
  }
  if (settings.cron) {
    const problem = cronProblem(settings.cron);
    if (problem) return `cron: ${problem}`;
  }
  if (
    settings.webhook_max_attempts !== undefined &&
    (!Number.isInteger(settings.webhook_max_attempts) || settings.webhook_max_attempts < 1)
  )
    return 'webhook_max_attempts must be at least 1';
  if (settings.webhook_backoff_seconds !== undefined && !(settings.webhook_backoff_seconds >= 0))
    return 'webhook_backoff_seconds must be at least 0';
  return null;
}

const schedule = (state: Existing) => ({
  cadence: state.settings.cadence,
  cron: state.settings.cron,
  anchor: state.created_at,
});

function decide(command: MonitorCommand, state: MonitorState, { now }: DecideContext): MonitorEventType[] {
  switch (command.type) {
    case 'CreateMonitor': {
      if (state.status !== 'absent') {
        if (state.monitor_id === command.monitor_id) return [];
        throw new Conflict(`stream holds monitor ${state.monitor_id}`);
      }
      const problem = settingsProblem(command.settings);
      if (problem) throw new Invalid(problem);
      const { type: _type, ...data } = command;
      return [{ type: 'MonitorCreated', data: { ...data, created_at: now } }];
    }
    case 'UpdateMonitor': {
      const monitor = live(state);
      const problem =
        settingsProblem(command.settings) ?? settingsProblem({ ...monitor.settings, ...command.settings });
      if (problem) throw new Invalid(problem);
      const changed = Object.entries(command.settings).some(
        ([k, v]) => JSON.stringify(monitor.settings[k as keyof MonitorSettings]) !== JSON.stringify(v),
      );
      const secretChanged =
        command.webhook_secret !== undefined &&
        JSON.stringify(command.webhook_secret) !== JSON.stringify(monitor.webhook_secret);
      if (!changed && !secretChanged) return [];
      return [
        {
          type: 'MonitorUpdated',
          data: {
            settings: command.settings,
            ...(command.webhook_secret !== undefined && { webhook_secret: command.webhook_secret }),
            updated_at: now,
          },
        },
      ];
    }
    case 'PauseMonitor':
      return live(state).status === 'paused' ? [] : [{ type: 'MonitorPaused', data: { paused_at: now } }];
    case 'ResumeMonitor':
      return live(state).status === 'active' ? [] : [{ type: 'MonitorResumed', data: { resumed_at: now } }];
    case 'DeleteMonitor':
      live(state);
      return [{ type: 'MonitorDeleted', data: { deleted_at: now } }];
    case 'StartScheduledRun': {
      if (state.status !== 'active') return [];
      if (state.running) return [];
      const due = dueSlots(schedule(state), state.scheduled_through, now);
      if (due.count === 0) return [];
      return [started(command, 'schedule', due.latest, due.count, now)];
    }
    case 'StartManualRun': {
      const monitor = live(state);
      if (monitor.running && leaseLive(monitor.running, now))
        throw new Conflict(`run ${monitor.running.event_id} is in progress`);
      if (monitor.running) throw new Conflict(`run ${monitor.running.event_id} must be taken over first`);
      return [started(command, 'manual', null, 1, now)];
    }
    case 'TakeOverRun': {
      const monitor = live(state);
      if (!monitor.running || monitor.running.worker_id === command.worker_id) return [];
      if (leaseLive(monitor.running, now))
        throw new Conflict(`run ${monitor.running.event_id} is held by ${monitor.running.worker_id}`);
      return [
        {
          type: 'MonitorRunTakenOver',
          data: {
            event_id: monitor.running.event_id,
            worker_id: command.worker_id,
            lease_until: leaseUntil(now, command.lease_seconds),
            at: now,
          },
        },
      ];
    }
    case 'RecordMonitorEvent': {
      if (state.status === 'absent') throw new NotFound('monitor does not exist');
      if (state.last_result?.event_id === command.event.event_id) return [];
      const run = state.running;
      if (!run || run.event_id !== command.event.event_id)
        throw new Conflict(`no run ${command.event.event_id} is in progress`);
      if (run.worker_id !== command.worker_id) throw new Conflict(`run ${run.event_id} is held by ${run.worker_id}`);
      // A page monitor's content is kept for the next diff; the public event shows it in snapshot mode only.
      const { content, ...shown } = command.event;
      const data =
        content === undefined
          ? { event: command.event }
          : { event: state.settings.mode === 'snapshot' ? command.event : shown, page: { content } };
      const events: MonitorEventType[] = [{ type: 'MonitorEventRecorded', data }];
      // A run costs one credit; a run that could not search costs nothing, but for the pages it rendered (the browser was used).
      const items = lineItems({
        sku_monitor_run: command.event.status !== 'error' ? 1 : 0,
        sku_render: Math.max(0, Math.floor(command.renders ?? 0)),
      });
      if (items.length > 0) {
        events.push({
          type: 'CreditsCharged',
          data: {
            team_id: state.team_id,
            request_id: command.event.event_id,
            items,
            credits: totalCredits(items),
            at: now,
          },
        });
      }
      return events;
    }
    case 'RecordWebhookOutcome': {
      if (state.status === 'absent') throw new NotFound('monitor does not exist');
      if (state.webhook_outcomes.includes(`${command.delivery_id}#${command.attempt}`)) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'MonitorWebhookOutcome', data: { ...data, at: now } }];
    }
    default: {
      const unreachable: { type: string } = command satisfies never;
      throw new Error(`unknown command ${unreachable.type}`);
    }
  }
}

function started(
  command: Cmd<'StartScheduledRun'> | Cmd<'StartManualRun'>,
  trigger: 'schedule' | 'manual',
  slot: string | null,
  slots_covered: number,
  now: string,
): MonitorEventType {
  return {
    type: 'MonitorRunStarted',
    data: {
      event_id: command.event_id,
      trigger,
      slot,
      slots_covered,
      started_at: now,
      worker_id: command.worker_id,
      lease_until: leaseUntil(now, command.lease_seconds),
    },
  };
}

function evolve(state: MonitorState, event: MonitorEventType): MonitorState {
  if (event.type === 'MonitorCreated') {
    if (state.status !== 'absent') return state;
    const d = event.data;
    return {
      status: d.status,
      monitor_id: d.monitor_id,
      team_id: d.team_id,
      key_id: d.key_id,
      // Monitors created before page monitors watch a query.
      settings: { ...d.settings, url: d.settings.url ?? null },
      webhook_secret: d.webhook_secret,
      created_at: d.created_at,
      updated_at: d.created_at,
      deleted_at: null,
      runs: 0,
      last_run_at: null,
      scheduled_through: d.created_at,
      running: null,
      last_results: null,
      last_content: null,
      last_result: null,
      last_webhook_status: null,
      last_webhook_at: null,
      last_webhook_error: null,
      webhook_outcomes: [],
    };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'MonitorUpdated': {
      const settings = { ...state.settings, ...event.data.settings };
      const webhook_secret = event.data.webhook_secret === undefined ? state.webhook_secret : event.data.webhook_secret;
      return { ...state, settings, webhook_secret, updated_at: event.data.updated_at };
    }
    case 'MonitorPaused':
      return state.status === 'active' ? { ...state, status: 'paused', updated_at: event.data.paused_at } : state;
    case 'MonitorResumed':
      // Slots that fell due while paused are skipped: scheduling restarts from the resume.
      return state.status === 'paused'
        ? {
            ...state,
            status: 'active',
            updated_at: event.data.resumed_at,
            scheduled_through:
              event.data.resumed_at > state.scheduled_through ? event.data.resumed_at : state.scheduled_through,
          }
        : state;
    case 'MonitorDeleted':
      return state.status === 'deleted'
        ? state
        : { ...state, status: 'deleted', deleted_at: event.data.deleted_at, running: null };
    case 'MonitorRunStarted': {
      const d = event.data;
      return {
        ...state,
        running: {
          event_id: d.event_id,
          worker_id: d.worker_id,
          lease_until: d.lease_until,
          trigger: d.trigger,
          slot: d.slot,
          slots_covered: d.slots_covered,
          started_at: d.started_at,
        },
        scheduled_through: d.slot && d.slot > state.scheduled_through ? d.slot : state.scheduled_through,
        runs: state.runs + 1,
        last_run_at: d.started_at,
      };
    }
    case 'MonitorRunTakenOver':
      return state.running?.event_id === event.data.event_id
        ? {
            ...state,
            running: { ...state.running, worker_id: event.data.worker_id, lease_until: event.data.lease_until },
          }
        : state;
    case 'MonitorEventRecorded': {
      const e = event.data.event;
      return {
        ...state,
        running: state.running?.event_id === e.event_id ? null : state.running,
        // An error run saw nothing: the next diff still compares with the last rows seen.
        last_results: e.status === 'error' ? state.last_results : e.results,
        last_content: e.status === 'error' ? state.last_content : (event.data.page?.content ?? state.last_content),
        last_result: { event_id: e.event_id, results_count: e.results_count, ran_at: e.ran_at, status: e.status },
      };
    }
    case 'MonitorWebhookOutcome': {
      const d = event.data;
      return {
        ...state,
        last_webhook_status: d.status,
        last_webhook_at: Date.parse(d.at) / 1000,
        last_webhook_error: d.delivered ? null : d.error,
        webhook_outcomes: [...state.webhook_outcomes, `${d.delivery_id}#${d.attempt}`].slice(-OUTCOMES_KEPT),
      };
    }
    case 'CreditsCharged':
      return state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export const monitorDecider: Decider<MonitorCommand, MonitorEventType, MonitorState> = {
  initialState: { status: 'absent' },
  decide,
  evolve,
};
