import {
  lifecycleNames,
  MONITOR_STREAM_PREFIX,
  RUN_KINDS,
  type RunKind,
  runEnds,
  type WebhookDeliveryCommand,
} from '@app/domain';
import { foldEvents, type RecordedEvent } from '@app/eventstore';

export type RequestDelivery = Extract<WebhookDeliveryCommand, { type: 'RequestDelivery' }>;

/** What the announcement follower reads: every run kind's end events, and monitors' recorded events. */
export const runEndFilter = (kinds: readonly RunKind[] = RUN_KINDS) => ({
  streamPrefixes: [...kinds.map((kind) => kind.streamPrefix), MONITOR_STREAM_PREFIX],
  eventTypePrefixes: [...kinds.flatMap((kind) => Object.keys(runEnds(kind.prefix))), 'MonitorEventRecorded'],
});

/**
 * The delivery a finished run of any kind announces, or undefined when the run asked for no
 * webhook. The view is folded up to the end event only, and timestamped by it, so every replica
 * (and every replay) builds the same payload: whichever appends the request first, the others'
 * is the same one. The kind names the stream whose secret signs it (runs: their team's).
 */
export function runWebhookDelivery(
  run: readonly RecordedEvent[],
  end: RecordedEvent,
  policy: { max_attempts: number; backoff_seconds: number },
  kinds: readonly RunKind[] = RUN_KINDS,
): RequestDelivery | undefined {
  const kind = kinds.find((k) => end.stream.startsWith(k.streamPrefix));
  const ending = kind && runEnds(kind.prefix)[end.type];
  if (!kind || !ending) return undefined;
  const state = foldEvents(kind.decider, run, { upTo: end.revision });
  if (state.status === 'absent' || !kind.webhook) return undefined;
  const url = kind.webhook.url(state);
  if (!url) return undefined;
  const type = `${kind.webhook.type}.${ending.suffix}`;
  const timestamp = (end.data as Record<string, unknown>)[ending.at];
  const payload = { type, timestamp: typeof timestamp === 'string' ? timestamp : end.created, data: kind.view(state) };
  // A run reopened (FindAll extend or enrich) ends again and announces again: each end after the
  // first has a delivery of its own, named by how many times the run was reopened before it.
  const reopened = run.filter(
    (event) => event.revision <= end.revision && event.type === lifecycleNames(kind.prefix).reopened,
  ).length;
  return {
    type: 'RequestDelivery',
    delivery: {
      delivery_id: reopened === 0 ? `${type}-${state.run_id}` : `${type}-${state.run_id}-${reopened + 1}`,
      team_id: state.team_id,
      url,
      type,
      payload,
      signer: kind.webhook.signer(state),
      ...policy,
    },
  };
}
