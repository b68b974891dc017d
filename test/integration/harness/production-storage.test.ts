import { productionStorage } from '../../support/service-process';

describe('cluster e2e on production storage (EVENTSTORE_URL / MONGO_URL given to the test run)', () => {
  it('uses neither when neither is given: the cluster shares a SQLite log', () => {
    expect(productionStorage({})).toEqual({});
  });

  it('passes EventStoreDB through with a shared SECRETS_KEY (made per cluster unless given)', () => {
    const made = productionStorage({ EVENTSTORE_URL: 'esdb://esdb:2113?tls=false' });
    expect(made.EVENTSTORE_URL).toBe('esdb://esdb:2113?tls=false');
    expect(Buffer.from(made.SECRETS_KEY, 'base64')).toHaveLength(32);
    expect(productionStorage({ EVENTSTORE_URL: 'esdb://esdb:2113', SECRETS_KEY: 'given' }).SECRETS_KEY).toBe('given');
  });

  it('gives each cluster a MongoDB database of its own, keeping host, credentials and options', () => {
    const a = productionStorage({ MONGO_URL: 'mongodb://user:pw@mongo:27017/webresearch?authSource=admin' }).MONGO_URL;
    const b = productionStorage({ MONGO_URL: 'mongodb://user:pw@mongo:27017/webresearch?authSource=admin' }).MONGO_URL;
    expect(a).toMatch(/^mongodb:\/\/user:pw@mongo:27017\/webresearch_e2e_[0-9a-f]{8}\?authSource=admin$/);
    expect(a).not.toBe(b);
    expect(productionStorage({ MONGO_URL: 'mongodb://mongo:27017' }).MONGO_URL).toMatch(
      /^mongodb:\/\/mongo:27017\/webresearch_e2e_[0-9a-f]{8}$/,
    );
  });
});
