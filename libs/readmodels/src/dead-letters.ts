import type { RecordedEvent } from '@app/eventstore';

/** Where events a projection could not write are set aside, one document per projection and event. */
export const DEAD_LETTERS = 'dead_letters';

/** An event set aside by one projection: what it was, and why it could not be written. */
export interface DeadLetter {
  projection: string;
  collection: string;
  event_id: string;
  stream: string;
  type: string;
  /** Global position, as a decimal string. */
  position: string;
  error: string;
  at: string;
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The dead letter of `event` for a projection (writing `collection`) that failed with `error`. */
export function deadLetter(
  projection: { name: string; collection: string },
  event: RecordedEvent,
  error: unknown,
): DeadLetter {
  return {
    projection: projection.name,
    collection: projection.collection,
    event_id: event.id,
    stream: event.stream,
    type: event.type,
    position: event.position.toString(),
    error: errorText(error).slice(0, 1_000),
    at: new Date().toISOString(),
  };
}

/** Its id in DEAD_LETTERS: one per projection and event. */
export const deadLetterId = (letter: DeadLetter) => `${letter.projection}@${letter.event_id}`;
