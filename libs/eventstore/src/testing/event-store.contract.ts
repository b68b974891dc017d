import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent } from '../event-store.port';
import { appendContract } from './event-store.append.contract';
import type { ContractScope } from './event-store.contract-helpers';
import { readsContract } from './event-store.reads.contract';
import { subscriptionsContract } from './event-store.subscriptions.contract';

/**
 * The one behaviour suite every EventStore adapter must pass (uses jest globals: import it by
 * path from a spec, never from index.ts). Stream names and event types carry a random run id
 * and a per-test counter, so the suite also runs against a shared EventStoreDB server; reads of
 * $all therefore filter on the test's own prefix, or compare reads with each other.
 */
export interface ContractFixture {
  store: EventStore;
  cleanup(): Promise<void>;
}

export function eventStoreContract(name: string, factory: () => Promise<ContractFixture>): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: ContractFixture | undefined;
    let store: EventStore;
    const run = randomUUID().slice(0, 8);
    let counter = 0;
    /** A stream-name (and event-type) prefix no other test, run or user shares. */
    const unique = (label: string) => `ct${run}-${label}${++counter}-`;
    const event = (type = 'Happened', data: Record<string, unknown> = { n: counter }): NewEvent => ({
      id: randomUUID(),
      type,
      data,
      metadata: { correlation_id: `corr-${run}`, schema: 1 },
    });

    beforeAll(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture?.cleanup();
    });

    const scope: ContractScope = {
      get store() {
        return store;
      },
      unique,
      event,
    };
    appendContract(scope);
    readsContract(scope);
    subscriptionsContract(scope);
  });
}
