import { loadConfig } from './config';

describe('loadConfig: SECRETS_KEY', () => {
  const key = Buffer.alloc(32, 9).toString('base64');

  it('is required with an EventStoreDB log (pods share no DATA_DIR, so no generated key file either)', () => {
    expect(() => loadConfig({ EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false' })).toThrow(/SECRETS_KEY is required when EVENTSTORE_URL is an EventStoreDB/);
    expect(() => loadConfig({ EVENTSTORE_URL: 'esdb+discover://cluster:2113' })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false', SECRETS_KEY: key }).eventstoreUrl).toBe('esdb://eventstore:2113?tls=false');
  });

  it('may be left out with the embedded sqlite log (processes on one machine share the generated key file)', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/wr-config-spec' }).eventstoreUrl).toMatch(/^sqlite:/);
  });

  it('must be 32 bytes when given', () => {
    expect(() => loadConfig({ SECRETS_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/SECRETS_KEY must be 32 bytes/);
  });
});
