import { MONITOR_STREAM_PREFIX, type MonitorEvent, monitorDecider, NOTIFY_STATUSES, teamStream } from '@app/domain';
import { foldEvents, type RecordedEvent } from '@app/eventstore';
import type { RequestDelivery } from './run-webhooks';

export const MONITOR_EVENT_RECORDED = 'MonitorEventRecorded';

/**
 * The delivery a monitor event asks for (API.md "Monitor events"): one `monitor.event` webhook per
 * event whose status is in the monitor's `notify_on`, to its `webhook`, signed with its own secret
 * (else the team's), with its own attempts and backoff; each attempt's outcome is reported back
 * to the monitor's stream. The monitor is folded up to this event, so a replay builds the same.
 */
export function monitorWebhookDelivery(
  monitor: readonly RecordedEvent[],
  recorded: RecordedEvent,
): RequestDelivery | undefined {
  if (!recorded.stream.startsWith(MONITOR_STREAM_PREFIX) || recorded.type !== MONITOR_EVENT_RECORDED) return undefined;
  const state = foldEvents(monitorDecider, monitor, { upTo: recorded.revision });
  if (state.status === 'absent' || state.status === 'deleted') return undefined;
  const event = (recorded.data as { event: MonitorEvent }).event;
  const { settings } = state;
  if (!settings.webhook || !settings.notify_on.some((n) => NOTIFY_STATUSES[n] === event.status)) return undefined;
  return {
    type: 'RequestDelivery',
    delivery: {
      delivery_id: `monitor.event-${event.event_id}`,
      team_id: state.team_id,
      url: settings.webhook,
      type: 'monitor.event',
      payload: { type: 'monitor.event', timestamp: event.ran_at, data: event },
      max_attempts: settings.webhook_max_attempts,
      backoff_seconds: settings.webhook_backoff_seconds,
      signer: state.webhook_secret ? recorded.stream : teamStream(state.team_id),
      report_to: { stream: recorded.stream, event_id: event.event_id },
    },
  };
}
