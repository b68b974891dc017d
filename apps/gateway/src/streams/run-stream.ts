import type { EventStore, RecordedEvent } from '@app/eventstore';

/** One public stream event: `id` is the stored revision, so ids increase (with gaps). */
export interface PublicEvent {
  id: string;
  event: string;
  data: unknown;
}

export interface RunStreamSpec<State> {
  initialState: State;
  evolve(state: State, event: { type: string; data: unknown }): State;
  /** The public name and payload of a stored event, or undefined when it is not sent. */
  publish(event: RecordedEvent, state: State): { event: string; data: unknown } | undefined;
  /** The stream closes after this public event. */
  terminal: ReadonlySet<string>;
}

/**
 * A run's public events from the log, after a revision: replay then live from one subscription,
 * so a client that reconnects with its last id gets every later event exactly once, in order.
 * The state is folded from the very first event, so a terminal event can carry the full view.
 */
export async function* runStream<State>(
  store: EventStore,
  stream: string,
  after: bigint | undefined,
  spec: RunStreamSpec<State>,
  signal: AbortSignal,
): AsyncGenerator<PublicEvent> {
  let state = spec.initialState;
  const subscription = store.subscribeToStream(stream);
  const onAbort = () => void subscription.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const event of subscription) {
      state = spec.evolve(state, { type: event.type, data: event.data });
      const published = spec.publish(event, state);
      if (!published) continue;
      // A client resuming after the run's last event gets nothing more: the stream ends at once.
      if (after === undefined || event.revision > after) yield { id: event.revision.toString(), ...published };
      if (spec.terminal.has(published.event)) return;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    await subscription.close();
  }
}

/** `Last-Event-ID` header, `?last_event_id=` or a WebSocket `resume_from`: a revision, or undefined. */
export function parseResumeFrom(value: unknown): bigint | undefined | 'invalid' {
  if (value === undefined || value === null || value === '') return undefined;
  const text = String(value).trim();
  return /^\d{1,19}$/.test(text) ? BigInt(text) : 'invalid';
}

export const sseFrame = (event: PublicEvent): string => `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
