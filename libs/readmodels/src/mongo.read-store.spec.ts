import { MongoReadStore } from './mongo.read-store';
import { readStoreContract } from './read-store.contract';

const url = process.env.MONGO_TEST_URL;

if (url) {
  readStoreContract('mongo', () => MongoReadStore.connect(url, process.env.MONGO_TEST_DB ?? 'readmodels_contract'));
} else {
  describe.skip('MongoReadStore skipped: set MONGO_TEST_URL to run against MongoDB', () => {
    it('passes the read-store contract', () => undefined);
  });
}
