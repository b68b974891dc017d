import { eventStoreContract } from './testing/event-store.contract';
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
  // Said where CI prints it, not only in a verbose listing: why this suite did not run.
  process.stderr.write(
    '[skipped] EsdbEventStore contract suite: no EventStoreDB server can run on this machine (no binary is installable here); set ESDB_TEST_URL=esdb://host:2113?tls=false to run it\n',
  );
  describe.skip('EsdbEventStore: skipped, no EventStoreDB server can run here (set ESDB_TEST_URL to run it)', () => {
    it('passes the EventStore contract against a real EventStoreDB', () => undefined);
  });
}
