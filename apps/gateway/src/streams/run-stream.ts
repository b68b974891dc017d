import { type RunKind, TERMINAL_PUBLIC_EVENTS } from '@app/domain';
import { type EventStore, toDomainEvent } from '@app/eventstore';
import { RequestValidationError } from '@app/platform';

import type { PublicEvent } from '../runs/run-responses';

/** One public stream event: `id` is the stored revision, so ids increase (with gaps). */
export type { PublicEvent };

/**
 * A run's public events from the log, after a revision: replay then live from one subscription,
 * so a client that reconnects with its last id gets every later event exactly once, in order.
 * The state is folded from the very first event, so a terminal event can carry the full view.
 * `settle` is awaited with a terminal event's log position before it is sent: a client that reads
 * the run (GET) the moment its stream ends must find the read models there too.
 */
export async function* runStream(
  store: EventStore,
  kind: RunKind,
  stream: string,
  after: bigint | undefined,
  signal: AbortSignal,
  settle?: (position: bigint) => Promise<unknown>,
): AsyncGenerator<PublicEvent> {
  let state = kind.decider.initialState;
  const subscription = store.subscribeToStream(stream);
  const onAbort = () => void subscription.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const event of subscription) {
      const stored = toDomainEvent(event);
      state = kind.decider.evolve(state, stored);
      const published = kind.publish(stored, state);
      if (!published) continue;
      const terminal = TERMINAL_PUBLIC_EVENTS.has(published.event);
      if (terminal && settle) await settle(event.position);
      // A client resuming after the run's last event gets nothing more: the stream ends at once.
      if (after === undefined || event.revision > after) yield { id: event.revision.toString(), ...published };
      if (terminal) return;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    await subscription.close();
  }
}

/** The public events recorded so far (no waiting): the JSON page of a run's events. */
export async function recordedEvents(store: EventStore, kind: RunKind, stream: string): Promise<PublicEvent[]> {
  let state = kind.decider.initialState;
  const out: PublicEvent[] = [];
  for (const event of await store.readStream(stream)) {
    const stored = toDomainEvent(event);
    state = kind.decider.evolve(state, stored);
    const published = kind.publish(stored, state);
    if (published) out.push({ id: event.revision.toString(), ...published });
  }
  return out;
}

/** `Last-Event-ID` header, `?last_event_id=` or a WebSocket `resume_from`: a revision, or undefined. */
export function parseResumeFrom(value: unknown): bigint | undefined | 'invalid' {
  if (value === undefined || value === null || value === '') return undefined;
  const text = String(value).trim();
  return /^\d{1,19}$/.test(text) ? BigInt(text) : 'invalid';
}

/** A stream request's `Last-Event-ID` (header or `?last_event_id=`): a revision, undefined, or a 422 naming the header. */
export function resumeAfter(lastEventId: string | undefined): bigint | undefined {
  const after = parseResumeFrom(lastEventId);
  if (after !== 'invalid') return after;
  throw new RequestValidationError([
    {
      type: 'string_pattern_mismatch',
      loc: ['header', 'last-event-id'],
      msg: "String should match pattern '^\\d{1,19}$'",
      input: lastEventId,
      ctx: { pattern: '^\\d{1,19}$' },
    },
  ]);
}

export const sseFrame = (event: PublicEvent): string =>
  `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
