import { NotFound } from '../decider';
import type { MonitorState } from './monitor.decider';
import type { MonitorSettings } from './monitor.events';
import { nextSlot } from './monitor.schedule';

/** The public monitor (spec "Monitor"): the secret itself is never shown, only whether one is set. */
export interface MonitorView extends Omit<MonitorSettings, 'cron' | 'filter_prompt' | 'webhook'> {
  id: string;
  cron: string | null;
  filter_prompt: string | null;
  webhook: string | null;
  webhook_secret_set: boolean;
  status: 'active' | 'paused';
  createdAt: string;
  lastRunAt: string | null;
  nextRunAt: string | null;
  runs: number;
  last_webhook_status: number | null;
  last_webhook_at: number | null;
  last_webhook_error: string | null;
  last_result: { event_id: string; results_count: number; ran_at: string; status: string | null } | null;
}

/** The view of a live monitor; a deleted one is a 404 (its events and history stay readable). */
export function monitorView(state: MonitorState): MonitorView {
  if (state.status === 'absent' || state.status === 'deleted') throw new NotFound('monitor does not exist');
  const { settings } = state;
  return {
    id: state.monitor_id,
    ...settings,
    webhook_secret_set: state.webhook_secret !== null,
    status: state.status,
    createdAt: state.created_at,
    lastRunAt: state.last_run_at,
    nextRunAt:
      state.status === 'paused'
        ? null
        : nextSlot(
            { cadence: settings.cadence, cron: settings.cron, anchor: state.created_at },
            state.scheduled_through,
          ),
    runs: state.runs,
    last_webhook_status: state.last_webhook_status,
    last_webhook_at: state.last_webhook_at,
    last_webhook_error: state.last_webhook_error,
    last_result: state.last_result,
  };
}
