import { loadConfig } from './config';

describe('loadConfig: SECRETS_KEY', () => {
  const key = Buffer.alloc(32, 9).toString('base64');

  it('is required with an EventStoreDB log (pods share no DATA_DIR, so no generated key file either)', () => {
    expect(() => loadConfig({ EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false' })).toThrow(
      /SECRETS_KEY is required when EVENTSTORE_URL is an EventStoreDB/,
    );
    expect(() => loadConfig({ EVENTSTORE_URL: 'esdb+discover://cluster:2113' })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false', SECRETS_KEY: key }).eventstoreUrl).toBe(
      'esdb://eventstore:2113?tls=false',
    );
  });

  it('may be left out with the embedded sqlite log (processes on one machine share the generated key file)', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/wr-config-spec' }).eventstoreUrl).toMatch(/^sqlite:/);
  });

  it('must be 32 bytes when given', () => {
    expect(() => loadConfig({ SECRETS_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /SECRETS_KEY must be 32 bytes/,
    );
  });
});

describe('loadConfig: LOCAL_INDEX_REFRESH', () => {
  it('reads a duration in seconds, minutes, hours or days, and off', () => {
    expect(loadConfig({}).localIndexRefreshMs).toBeUndefined();
    expect(loadConfig({ LOCAL_INDEX_REFRESH: 'off' }).localIndexRefreshMs).toBeUndefined();
    expect(loadConfig({ LOCAL_INDEX_REFRESH: '0' }).localIndexRefreshMs).toBeUndefined();
    expect(loadConfig({ LOCAL_INDEX_REFRESH: '90' }).localIndexRefreshMs).toBe(90_000);
    expect(loadConfig({ LOCAL_INDEX_REFRESH: '15m' }).localIndexRefreshMs).toBe(900_000);
    expect(loadConfig({ LOCAL_INDEX_REFRESH: '6h' }).localIndexRefreshMs).toBe(6 * 3_600_000);
    expect(loadConfig({ LOCAL_INDEX_REFRESH: '1d' }).localIndexRefreshMs).toBe(86_400_000);
  });

  it('refuses a malformed or out-of-bounds duration, naming the variable and the bound', () => {
    expect(() => loadConfig({ LOCAL_INDEX_REFRESH: 'hourly' })).toThrow(/LOCAL_INDEX_REFRESH.*duration/);
    expect(() => loadConfig({ LOCAL_INDEX_REFRESH: '5s' })).toThrow(
      /LOCAL_INDEX_REFRESH.*between 10 s and 30 days, got 5 s/,
    );
    expect(() => loadConfig({ LOCAL_INDEX_REFRESH: '31d' })).toThrow(/LOCAL_INDEX_REFRESH.*between 10 s and 30 days/);
  });
});

describe('loadConfig: LOCAL_INDEX_CACHE_MB', () => {
  it('is 384 MB unless given, in bytes, and a value out of bounds is refused, naming the variable', () => {
    expect(loadConfig({}).localIndexCacheBytes).toBe(384 * 2 ** 20);
    expect(loadConfig({ LOCAL_INDEX_CACHE_MB: '64' }).localIndexCacheBytes).toBe(64 * 2 ** 20);
    expect(() => loadConfig({ LOCAL_INDEX_CACHE_MB: '4' })).toThrow(/LOCAL_INDEX_CACHE_MB/);
    expect(() => loadConfig({ LOCAL_INDEX_CACHE_MB: 'lots' })).toThrow(/LOCAL_INDEX_CACHE_MB/);
  });
});

describe('loadConfig: LOCAL_INDEX_PRELOAD', () => {
  it('is auto unless given, and another value is refused, naming the variable and the choices', () => {
    expect(loadConfig({}).localIndexPreload).toBe('auto');
    expect(loadConfig({ LOCAL_INDEX_PRELOAD: 'off' }).localIndexPreload).toBe('off');
    expect(loadConfig({ LOCAL_INDEX_PRELOAD: 'on' }).localIndexPreload).toBe('on');
    expect(() => loadConfig({ LOCAL_INDEX_PRELOAD: 'yes' })).toThrow(/LOCAL_INDEX_PRELOAD.*auto.*on.*off/);
  });
});

describe('loadConfig: HEAP_GROWTH_PERCENT', () => {
  it('is 50 unless given, 0 leaves the heap to V8, and bounds are named', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(50);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '200' }).heapGrowthPercent).toBe(200);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '-1' })).toThrow(/HEAP_GROWTH_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '1001' })).toThrow(/HEAP_GROWTH_PERCENT.*1000/);
  });
});

describe('loadConfig: HEALTH_PORT', () => {
  it('is off unless given, and a port when given (bounds named)', () => {
    expect(loadConfig({}).healthPort).toBeUndefined();
    expect(loadConfig({ HEALTH_PORT: '8081' }).healthPort).toBe(8081);
    expect(() => loadConfig({ HEALTH_PORT: '0' })).toThrow(/HEALTH_PORT/);
    expect(() => loadConfig({ HEALTH_PORT: '70000' })).toThrow(/HEALTH_PORT.*65535/);
  });
});

describe('loadConfig: RENDER_QUEUE_MAX', () => {
  it('is 16 unless given, 0 allows no waiting, and bounds are named', () => {
    expect(loadConfig({}).renderQueueMax).toBe(16);
    expect(loadConfig({ RENDER_QUEUE_MAX: '0' }).renderQueueMax).toBe(0);
    expect(() => loadConfig({ RENDER_QUEUE_MAX: '-1' })).toThrow(/RENDER_QUEUE_MAX/);
  });
});

describe('loadConfig: NATS_URL and NATS_REPLICAS', () => {
  it('takes one server or every node of a cluster, each checked, and keeps the bucket on one node unless told', () => {
    expect(loadConfig({}).natsServers).toEqual(['nats://127.0.0.1:4222']);
    expect(loadConfig({ NATS_URL: 'nats://a:4222, nats://b:4222,nats://c:4222' }).natsServers).toEqual([
      'nats://a:4222',
      'nats://b:4222',
      'nats://c:4222',
    ]);
    expect(() => loadConfig({ NATS_URL: 'nats://a:4222,http://b:4222' })).toThrow(/NATS_URL.*schemes/);
    expect(loadConfig({}).largePayloads.replicas).toBe(1);
    expect(loadConfig({ NATS_REPLICAS: '3' }).largePayloads.replicas).toBe(3);
    expect(() => loadConfig({ NATS_REPLICAS: '6' })).toThrow(/NATS_REPLICAS.*5/);
  });
});
