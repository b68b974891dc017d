import { NotFound } from '../decider';
import type { MonitorState } from './monitor.decider';
import { MonitorSettingsSchema } from './monitor.events';
import { Nullable, type Static, StringEnum, Type } from '../schema';
import { nextSlot } from './monitor.schedule';

/** The public monitor (spec "Monitor"): the secret itself is never shown, only whether one is set. */
export const MonitorViewSchema = Type.Composite(
  [
    Type.Object({ id: Type.String() }),
    MonitorSettingsSchema,
    Type.Object({
      webhook_secret_set: Type.Boolean(),
      status: StringEnum(['active', 'paused']),
      createdAt: Type.String(),
      lastRunAt: Nullable(Type.String()),
      nextRunAt: Nullable(Type.String()),
      runs: Type.Integer(),
      last_webhook_status: Nullable(Type.Integer()),
      last_webhook_at: Nullable(Type.Number()),
      last_webhook_error: Nullable(Type.String()),
      last_result: Nullable(
        Type.Object({
          event_id: Type.String(),
          results_count: Type.Integer(),
          ran_at: Type.String(),
          status: Nullable(Type.String()),
        }),
      ),
    }),
  ],
  { $id: 'Monitor' },
);
export type MonitorView = Static<typeof MonitorViewSchema>;

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
