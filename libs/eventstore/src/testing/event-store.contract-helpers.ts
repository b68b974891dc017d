/**
 * What the parts of the EventStore contract share: the scope a part's tests run in (the store
 * under test and the names and events they write), and helpers to wait on reads and subscriptions.
 */
import type { EventStore, NewEvent, RecordedEvent, Subscription } from '../event-store.port';

/** The contract's scope, made by eventStoreContract and handed to each of its parts. */
export interface ContractScope {
  /** The store under test: set in the contract's beforeAll, so read it in a hook or a test. */
  readonly store: EventStore;
  /** A stream-name (and event-type) prefix no other test, run or user shares. */
  unique(label: string): string;
  event(type?: string, data?: Record<string, unknown>): NewEvent;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Consumes a subscription in the background. */
export function collect(subscription: Subscription) {
  const received: RecordedEvent[] = [];
  const finished = (async () => {
    for await (const event of subscription) received.push(event);
  })();
  const waitFor = async (count: number, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (received.length < count) {
      if (Date.now() > deadline) throw new Error(`timed out with ${received.length} of ${count} events`);
      await sleep(5);
    }
  };
  return { received, finished, waitFor };
}

export const ids = (events: ReadonlyArray<{ id: string }>) => events.map((event) => event.id);

export const strictlyIncreasing = (values: bigint[]) => values.every((value, i) => i === 0 || value > values[i - 1]);
