import type { MonitorEvent, MonitorMode, MonitorRow } from './monitor.events';

/**
 * A monitor event from this run's rows and the previous run's (API.md "Monitor events"): diff
 * reports added and removed rows by normalised URL, snapshot the full rows; both are `changed`
 * when the set differs. With a filter, only rows where it held are kept, `matched` says whether
 * any did, and `matched` wins over `changed`. The first diff run reports every row as added.
 */
export function monitorEvent(input: {
  event_id: string;
  monitor_id: string;
  ran_at: string;
  mode: MonitorMode;
  rows: MonitorRow[];
  previous: MonitorRow[] | null;
  /** Filter verdicts per row (null: no filter). */
  kept: boolean[] | null;
  slots_covered: number;
  key: (url: string) => string;
}): MonitorEvent {
  const rows = input.kept ? input.rows.filter((_, i) => input.kept![i]) : input.rows;
  const before = new Map((input.previous ?? []).map((r) => [input.key(r.url), r]));
  const now = new Map(rows.map((r) => [input.key(r.url), r]));
  const added = rows.filter((r) => !before.has(input.key(r.url)));
  const removed = (input.previous ?? []).filter((r) => !now.has(input.key(r.url)));
  const changed = added.length > 0 || removed.length > 0;
  const matched = input.kept ? rows.length > 0 : null;
  return {
    event_id: input.event_id,
    monitor_id: input.monitor_id,
    ran_at: input.ran_at,
    status: matched ? 'matched' : changed ? 'changed' : 'unchanged',
    mode: input.mode,
    results_count: rows.length,
    results: rows,
    added: input.mode === 'diff' ? added : [],
    removed: input.mode === 'diff' ? removed : [],
    matched,
    error: null,
    slots_covered: input.slots_covered,
  };
}

/** Which monitor event statuses a `notify_on` entry asks to be told of. */
export const NOTIFY_STATUSES = { change: 'changed', match: 'matched', error: 'error' } as const;
