/**
 * Reads of $all for the EventStoreDB adapter: the head, a forward scan filtered here, and a read
 * filtered by the server (the v6 client has no filtered read: a filtered catch-up subscription,
 * ended at the head).
 */
import { type AllStreamResolvedEvent, BACKWARDS, END, type EventStoreDBClient, FORWARDS } from '@eventstore/db-client';
import type { AllFilter, RecordedEvent } from './event-store.port';
import { allEvent, fromPosition, isSystem, serverFilter, UNBOUNDED } from './esdb.resolved';

/**
 * How long a filtered read waits for a silent server before reading on itself. A server with
 * filtered checkpoints reports one where its catch-up reaches the live point (so its 21.x/22.x
 * code reads; 23.10 also says caughtUp), which ends the read at once; the wait is for servers that
 * say neither, or stall. What is left after it is read here in full, so a short wait costs some
 * reading on this side, never a missed event.
 */
export const FILTERED_READ_IDLE_MS = 500;

/** The last non-system event's position, or -1n: a fresh server already holds system events. */
export async function headPosition(client: EventStoreDBClient): Promise<bigint> {
  const read = client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: UNBOUNDED });
  for await (const resolved of read) {
    if (resolved.event && !isSystem(resolved.event)) {
      await read.cancel();
      return resolved.event.position.commit;
    }
  }
  return -1n;
}

/**
 * Streams $all forward from after `after` and keeps, into `out`, the events that pass `filter`
 * (and are no system events), until `out` holds `maxCount` or an event lies past `head`. The read
 * from {p, p} includes the event at p itself (reads are inclusive): it is skipped.
 */
export async function scanAll(
  client: EventStoreDBClient,
  after: bigint | undefined,
  filter: AllFilter | undefined,
  maxCount: number,
  out: RecordedEvent[],
  head?: bigint,
): Promise<void> {
  if (out.length >= maxCount) return;
  const read = client.readAll({ fromPosition: fromPosition(after), direction: FORWARDS, maxCount: UNBOUNDED });
  for await (const resolved of read) {
    const position = resolved.event?.position.commit;
    const past = head !== undefined && position !== undefined && position > head;
    const event = past ? undefined : allEvent(resolved, after, filter);
    if (event) out.push(event);
    if (past || out.length >= maxCount) {
      await read.cancel();
      return;
    }
  }
}

/** A position the server reported in order with the events (a checkpoint), or its catch-up. */
interface Reached {
  reached: bigint | 'caught-up';
}
type Item = AllStreamResolvedEvent | Reached;

/**
 * A server-filtered read of $all, up to `maxCount` events at or before `head` (read first by the
 * caller): a filtered subscription from `after`, ended by an event at or past the head, a
 * checkpoint at or past it, the server's caughtUp, or a full page. Checkpoints and caughtUp are
 * put into the subscription's stream where the client reports them, so the events before them
 * are taken first. Should the server go quiet for `idleMs` before any of these, the read goes on
 * here from the last position the server reported: a forward scan filtered on this side, to a full
 * page or the head, so a page is short only where the log has no more matches up to the head.
 */
export async function readAllFiltered(
  client: EventStoreDBClient,
  subscriber: EventStoreDBClient,
  options: { after?: bigint; filter?: AllFilter },
  maxCount: number,
  head: bigint,
  idleMs = FILTERED_READ_IDLE_MS,
): Promise<RecordedEvent[]> {
  const { after, filter } = options;
  const out: RecordedEvent[] = [];
  if (head < 0n || (after !== undefined && after >= head)) return out;
  let reached = after;
  let atHead = false;
  const subscription = subscriber.subscribeToAll({
    fromPosition: fromPosition(after),
    filter: {
      ...serverFilter(filter),
      checkpointInterval: 1,
      // Called in order with the events (the client awaits it before the next message).
      checkpointReached: (sub, position) => void sub.push({ reached: position.commit } satisfies Reached),
    },
  });
  subscription.on('caughtUp', () => subscription.push({ reached: 'caught-up' } satisfies Reached));
  subscription.on('error', () => undefined); // rethrown by the iteration below while it runs
  const items = subscription[Symbol.asyncIterator]() as AsyncIterator<Item>;
  let wake: (quiet: 'quiet') => void = () => undefined;
  const quiet = new Promise<'quiet'>((resolve) => (wake = resolve));
  const timer = setTimeout(() => wake('quiet'), idleMs);
  try {
    while (out.length < maxCount) {
      const step = await Promise.race([items.next(), quiet]);
      if (step === 'quiet' || step.done) break;
      timer.refresh();
      const item = step.value;
      const position = 'reached' in item ? item.reached : item.event?.position.commit;
      if (position === 'caught-up') {
        atHead = true;
        break;
      }
      if (!('reached' in item)) {
        const event = allEvent(item, after, filter);
        if (event && event.position <= head) out.push(event);
      }
      if (position === undefined) continue;
      if (reached === undefined || position > reached) reached = position;
      if (position >= head) {
        atHead = true;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    await subscription.unsubscribe().catch(() => undefined);
    subscription.destroy(); // also settles a next() left pending by the quiet timer
  }
  if (!atHead) await scanAll(client, reached, filter, maxCount, out, head);
  return out;
}
