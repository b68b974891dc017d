/**
 * Run views too large to travel inline in a delivery event: such a request keeps a reference to
 * the run's end event instead, and the payload is folded again from the run's stream when sent.
 */
import type { RunKind } from '@app/domain';
import type { EventStore, RecordedEvent } from '@app/eventstore';
import { type RequestDelivery, runWebhookDelivery } from './run-webhooks';

/** A payload larger than this is kept by reference in its delivery event, not inline. */
export const INLINE_PAYLOAD_BYTES = 256 * 1024;

/** The request as it is recorded: a payload over INLINE_PAYLOAD_BYTES replaced by a reference to the run's end. */
export function withPayloadByReference(request: RequestDelivery, end: RecordedEvent): RequestDelivery {
  if (!request.delivery.payload || Buffer.byteLength(JSON.stringify(request.delivery.payload)) <= INLINE_PAYLOAD_BYTES)
    return request;
  // A run view too large for an event (the log takes 1 MiB an append) travels by reference.
  return {
    ...request,
    delivery: {
      ...request.delivery,
      payload: null,
      payload_ref: { stream: end.stream, revision: end.revision.toString() },
    },
  };
}

/** A payload kept by reference: the run's view as of its end event, folded again. */
export async function payloadOf(
  events: EventStore,
  ref: { stream: string; revision: string },
  policy: { max_attempts: number; backoff_seconds: number },
  kinds: readonly RunKind[],
): Promise<Record<string, unknown>> {
  const run = await events.readStream(ref.stream);
  const end = run.find((event) => event.revision === BigInt(ref.revision));
  const rebuilt = end && runWebhookDelivery(run, end, policy, kinds);
  if (!rebuilt?.delivery.payload) throw new Error(`${ref.stream} has no run end at revision ${ref.revision}`);
  return rebuilt.delivery.payload;
}
