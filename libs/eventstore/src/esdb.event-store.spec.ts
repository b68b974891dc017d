import { eventStoreContract } from './event-store.contract';
import { EsdbEventStore } from './esdb.event-store';

/**
 * Runs the shared contract against a real EventStoreDB, e.g.
 * ESDB_TEST_URL='esdb://localhost:2113?tls=false'. Without a server the suite is reported as
 * skipped, never passed.
 */
const url = process.env.ESDB_TEST_URL;

if (url) {
  eventStoreContract('esdb', async () => {
    const store = EsdbEventStore.connect(url);
    await store.ping(); // fail fast with the connection error rather than per test
    return { store, cleanup: () => store.close() };
  });
} else {
  describe.skip('EsdbEventStore (skipped: set ESDB_TEST_URL to run against EventStoreDB)', () => {
    it('runs the EventStore contract against EventStoreDB', () => undefined);
  });
}
