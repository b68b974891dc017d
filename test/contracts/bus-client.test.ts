/**
 * BusClient's semantics over both transports, against test-only workers: queue groups and fan-out,
 * timeouts, wire format and errors, payloads larger than a NATS message, and a NATS restart.
 */
import { INestMicroservice, Module, Type } from '@nestjs/common';
import { BaseRpcContext, Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  BusClient,
  BusController,
  busHeaders,
  BusPayloadError,
  BusReplyError,
  BusTimeoutError,
  BusTransportConfig,
  FAN_OUT,
  LARGE_PAYLOAD_DEFAULTS,
} from '@app/bus';
import { connect } from 'nats';
import { HealthHandlerModule } from '@app/contracts';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server';
import { nats, startService, useNatsServer } from './bus-harness';

useNatsServer();

/** Test-only service: `work` counts per instance; `stall` never answers; the rest probe wire semantics. */
const calls: Record<string, number> = {};
const events: Array<{ instance: string; kind: string; n: number; headers?: unknown }> = [];
function workerModule(instance: string): Type {
  @BusController()
  class Worker {
    @MessagePattern('qtest.work')
    work(@Payload() data: { i: number }) {
      calls[instance] = (calls[instance] ?? 0) + 1;
      return { instance, i: data.i };
    }
    @MessagePattern('qtest.stall')
    stall() {
      return new Promise(() => undefined);
    }
    @MessagePattern('qtest.echo')
    echo(@Payload() data: Record<string, unknown>, @Ctx() ctx: BaseRpcContext) {
      return {
        data,
        types: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v])),
        headers: busHeaders(ctx),
      };
    }
    @MessagePattern('qtest.refuse')
    refuse() {
      throw Object.assign(new Error('monitor m-1 not found'), { status: 404 });
    }
    @MessagePattern('qtest.crash')
    crash() {
      throw new Error('internal detail');
    }
    @EventPattern('qtest.event')
    event(@Payload() data: { n: number }, @Ctx() ctx: BaseRpcContext) {
      events.push({ instance, kind: 'grouped', n: data.n, headers: busHeaders(ctx) });
    }
    @EventPattern('qtest.fanout', FAN_OUT)
    fanout(@Payload() data: { n: number }) {
      events.push({ instance, kind: 'fanout', n: data.n });
    }
    @MessagePattern('qtest.bigint')
    bigint() {
      return { position: 5n };
    }
    @MessagePattern('qtest.measure')
    measure(@Payload() data: { text: string }) {
      return { bytes: Buffer.byteLength(data.text), same: data.text === 'ü'.repeat(data.text.length) };
    }
    @MessagePattern('qtest.large')
    large(@Payload() data: { bytes: number }) {
      return { text: 'é'.repeat(data.bytes / 2), bytes: data.bytes };
    }
  }
  Object.defineProperty(Worker, 'name', { value: `Worker_${instance}` });
  @Module({ controllers: [Worker] })
  class WorkerModule {}
  return WorkerModule;
}

describe.each(['inprocess', 'nats'] as const)('BusClient semantics over %s', (transport) => {
  let apps: INestMicroservice[] = [];
  let bus: BusClient;

  beforeAll(async () => {
    const config: BusTransportConfig = { bus: transport, natsServers: nats.url };
    apps = await Promise.all(
      ['one', 'two'].map((n) => startService(config, 'qtest', [workerModule(`${transport}-${n}`)])),
    );
    bus = new BusClient({ transport, natsServers: nats.url, timeoutMs: 3000 });
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await Promise.all(apps.map((app) => app.close()));
  });

  it('two instances in one queue group split the requests, each request answered exactly once', async () => {
    const n = 60;
    const replies = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        bus.request<{ i: number }, { instance: string; i: number }>('qtest.work', { i }),
      ),
    );
    expect(replies.map((r) => r.i)).toEqual(Array.from({ length: n }, (_, i) => i));
    await new Promise((r) => setTimeout(r, 50)); // a duplicate delivery would show up here
    const one = calls[`${transport}-one`] ?? 0;
    const two = calls[`${transport}-two`] ?? 0;
    expect(one + two).toBe(n);
    expect(one).toBeGreaterThan(0);
    expect(two).toBeGreaterThan(0);
  });

  it('an event reaches one instance of the queue group; a FAN_OUT listener on every instance', async () => {
    const mine = () => events.filter((e) => e.instance.startsWith(`${transport}-`));
    await bus.emit('qtest.event', { n: 1 }, { headers: { correlation_id: 'c-ev' } });
    await bus.emit('qtest.fanout', { n: 2 });
    const deadline = Date.now() + 2000;
    while (mine().filter((e) => e.kind === 'fanout').length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50)); // a second grouped delivery would show up here
    const grouped = mine().filter((e) => e.kind === 'grouped');
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatchObject({ n: 1, headers: { correlation_id: 'c-ev' } });
    expect(
      mine()
        .filter((e) => e.kind === 'fanout')
        .map((e) => e.instance)
        .sort(),
    ).toEqual([`${transport}-one`, `${transport}-two`]);
  });

  it('a handler that does not answer within the timeout gives BusTimeoutError', async () => {
    const started = Date.now();
    const err = await bus.request('qtest.stall', {}, { timeoutMs: 150 }).catch((e) => e);
    expect(err).toBeInstanceOf(BusTimeoutError);
    expect(err).toMatchObject({ subject: 'qtest.stall', reason: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('a subject nobody serves fails promptly with BusTimeoutError (no responders)', async () => {
    const started = Date.now();
    await expect(bus.request('qtest.nobody', {}, { timeoutMs: 5000 })).rejects.toMatchObject({
      name: 'BusTimeoutError',
      reason: 'no_responders',
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('headers and JSON wire semantics are the same on both transports', async () => {
    const reply = await bus.request(
      'qtest.echo',
      { when: new Date('2024-01-02T03:04:05.000Z'), gone: undefined, n: 1 },
      { headers: { correlation_id: 'c-1', request_id: 'r-1' } },
    );
    expect(reply).toEqual({
      data: { when: '2024-01-02T03:04:05.000Z', n: 1 },
      types: { when: 'string', n: 'number' },
      headers: { correlation_id: 'c-1', request_id: 'r-1' },
    });
    const err = (await bus.request('qtest.echo', { position: 1n }).catch((e) => e)) as Error;
    expect(err).toBeInstanceOf(BusPayloadError);
    expect(err.message).toMatch(/BigInt/);
    await expect(bus.emit('qtest.event', { position: 1n })).rejects.toBeInstanceOf(BusPayloadError);
  });

  it('errors cross as data: a refusal keeps its status, a crash is an opaque 500, an unserializable reply a 500', async () => {
    await expect(bus.request('qtest.refuse', {})).rejects.toEqual(
      new BusReplyError('qtest.refuse', 404, 'monitor m-1 not found'),
    );
    await expect(bus.request('qtest.crash', {})).rejects.toMatchObject({
      status: 500,
      detail: 'Internal Server Error',
    });
    await expect(bus.request('qtest.bigint', {}, { timeoutMs: 1000 })).rejects.toMatchObject({
      status: 500,
      detail: 'Internal Server Error',
    });
  });

  it('a request larger than a NATS message (a task input near the body limit) reaches its handler whole', async () => {
    await expect(bus.request('qtest.measure', { text: 'ü'.repeat(1_000_000) }, { timeoutMs: 5000 })).resolves.toEqual({
      bytes: 2_000_000,
      same: true,
    });
  });

  // The object store is NATS's (in process, a payload of any size is handed over as it is): these two are NATS's tests only.
  const natsOnly = (name: string, test: () => Promise<void>) => transport === 'nats' && it(name, test);

  natsOnly(
    'a request whose stored payload is gone (its TTL passed) is answered at once as a 502 saying so',
    async () => {
      const gone = {
        $bus_large_payload: { bucket: LARGE_PAYLOAD_DEFAULTS.bucket, name: 'expired-payload', bytes: 2_000_000 },
      };
      const started = Date.now();
      const err = (await bus.request('qtest.measure', gone, { timeoutMs: 5000 }).catch((e) => e)) as BusReplyError;
      expect(err).toBeInstanceOf(BusReplyError);
      expect(err).toMatchObject({ status: 502 });
      expect(err.detail).toMatch(/2000000-byte payload sent through the object store is gone/);
      expect(Date.now() - started).toBeLessThan(2000);
    },
  );

  it('a reply larger than a NATS message (an extract of a long page) arrives whole', async () => {
    // 3 MB of two-byte characters: three times NATS's default max_payload.
    const reply = await bus.request<{ bytes: number }, { text: string; bytes: number }>(
      'qtest.large',
      { bytes: 3_000_000 },
      { timeoutMs: 5000 },
    );
    expect(reply.bytes).toBe(3_000_000);
    expect(Buffer.byteLength(reply.text)).toBe(3_000_000);
    expect(reply.text).toBe('é'.repeat(1_500_000));
  });

  natsOnly('the stored copy of a large reply is deleted once read', async () => {
    const nc = await connect({ servers: nats.url });
    try {
      const os = await nc.jetstream().views.os(LARGE_PAYLOAD_DEFAULTS.bucket);
      await expect(bus.request('qtest.large', { bytes: 3_000_000 }, { timeoutMs: 5000 })).resolves.toMatchObject({
        bytes: 3_000_000,
      });
      const deadline = Date.now() + 2000;
      while ((await os.list()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await os.list()).toEqual([]);
    } finally {
      await nc.close();
    }
  });
});

describe('a large reply the store cannot hold', () => {
  let app: INestMicroservice;
  let bus: BusClient;
  beforeAll(async () => {
    // A bucket of its own, smaller than the reply.
    app = await startService(
      { bus: 'nats', natsServers: nats.url, largePayloads: { bucket: 'bus-test-small', maxBytes: 1_500_000 } },
      'qsmall',
      [workerModule('small')],
    );
    bus = new BusClient({ transport: 'nats', natsServers: nats.url, timeoutMs: 3000 });
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await app?.close();
  });

  it('is refused at once as a 502 naming its size and the bus limit, not left to time out; smaller replies still pass', async () => {
    const started = Date.now();
    const err = (await bus
      .request('qtest.large', { bytes: 3_000_000 }, { timeoutMs: 10_000 })
      .catch((e) => e)) as BusReplyError;
    expect(err).toBeInstanceOf(BusReplyError);
    expect(err.status).toBe(502);
    expect(err.detail).toMatch(
      /^the reply \(\d{7} bytes\) is larger than a bus message \(\d+ bytes\) and could not be stored/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(bus.request('qtest.large', { bytes: 1_200_000 })).resolves.toMatchObject({ bytes: 1_200_000 });
  });
});

describe('a large request from a client with bounds of its own', () => {
  let app: INestMicroservice;
  let bus: BusClient;
  beforeAll(async () => {
    app = await startService({ bus: 'nats', natsServers: nats.url }, 'qbounds', [workerModule('bounds')]);
    bus = new BusClient({
      transport: 'nats',
      natsServers: nats.url,
      timeoutMs: 3000,
      largePayloads: { bucket: 'bus-test-client', maxBytes: 8_000_000, ttlMs: 60_000 },
    });
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await app?.close();
  });

  it('goes through a bucket made with those bounds (the deployment’s, whichever side makes it first)', async () => {
    await expect(bus.request('qtest.measure', { text: 'ü'.repeat(1_000_000) }, { timeoutMs: 5000 })).resolves.toEqual({
      bytes: 2_000_000,
      same: true,
    });
    const nc = await connect({ servers: nats.url });
    try {
      const config = (await (await nc.jetstream().views.os('bus-test-client')).status()).streamInfo.config;
      expect(config.max_bytes).toBe(8_000_000);
      expect(config.max_age).toBe(60_000 * 1_000_000);
    } finally {
      await nc.close();
    }
  });
});

describe('NATS restart', () => {
  let own: NatsServerHandle;
  let app: INestMicroservice;
  let bus: BusClient;
  beforeAll(async () => {
    own = await startNatsServer();
    app = await startService({ bus: 'nats', natsServers: own.url }, 'search', [HealthHandlerModule.for('search')]);
    bus = new BusClient({ transport: 'nats', natsServers: own.url, timeoutMs: 300 });
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await app?.close();
    await own?.stop();
  });

  it('while NATS is down requests fail as BusTimeoutError; both sides reconnect once it is back', async () => {
    await expect(bus.request('search.health', {})).resolves.toMatchObject({ status: 'ok' });
    const restarted = own.restart(1500);
    await new Promise((r) => setTimeout(r, 500));
    await expect(bus.request('search.health', {})).rejects.toBeInstanceOf(BusTimeoutError);
    await restarted;
    let reply: unknown;
    for (const deadline = Date.now() + 10_000; !reply && Date.now() < deadline;) {
      reply = await bus.request('search.health', {}).catch(() => new Promise((r) => setTimeout(r, 100)));
    }
    expect(reply).toMatchObject({ service: 'search', status: 'ok' });
  }, 20_000);
});
