import { searchRunView, type SearchRunEvent } from '@app/domain/search-run';
import type { WebhookDeliveryCommand } from '@app/domain/webhook-delivery';
import type { RecordedEvent } from '@app/eventstore';

/** How a search run ends -> the webhook type announcing it, and the field that dates it. */
const RUN_ENDS: Record<string, { type: string; at: string }> = {
  SearchRunCompleted: { type: 'search_run.completed', at: 'completed_at' },
  SearchRunFailed: { type: 'search_run.failed', at: 'failed_at' },
  SearchRunCancelled: { type: 'search_run.cancelled', at: 'cancelled_at' },
};

export const RUN_END_EVENT_TYPES = Object.keys(RUN_ENDS);
export const RUN_STREAM_PREFIX = 'search-';

export type RequestDelivery = Extract<WebhookDeliveryCommand, { type: 'RequestDelivery' }>;

/**
 * The one place that turns a run's events into its public view. Kept behind this name so the
 * task and FindAll runs can plug in theirs the same way.
 */
export const runViewFor = (events: readonly RecordedEvent[]): Record<string, unknown> =>
  searchRunView(events.map((event) => ({ type: event.type, data: event.data }) as SearchRunEvent)) as unknown as Record<string, unknown>;

/**
 * The delivery a finished run announces, or undefined when the run asked for no webhook. The view
 * is folded up to the end event only, and timestamped by it, so every replica (and every replay)
 * builds the same payload: whichever appends the request first, the others' is the same one.
 */
export function runWebhookDelivery(
  run: readonly RecordedEvent[],
  end: RecordedEvent,
  policy: { max_attempts: number; backoff_seconds: number },
): RequestDelivery | undefined {
  const ending = RUN_ENDS[end.type];
  const requested = run[0];
  if (!ending || requested?.type !== 'SearchRunRequested') return undefined;
  const { search_id, team_id, params } = requested.data as { search_id: string; team_id: string; params: { webhook?: string | null } };
  if (!params.webhook) return undefined;
  const timestamp = (end.data as Record<string, unknown>)[ending.at];
  const payload = {
    type: ending.type,
    timestamp: typeof timestamp === 'string' ? timestamp : end.created,
    data: runViewFor(run.filter((event) => event.revision <= end.revision)),
  };
  return {
    type: 'RequestDelivery',
    delivery: { delivery_id: `${ending.type}-${search_id}`, team_id, url: params.webhook, type: ending.type, payload, ...policy },
  };
}
