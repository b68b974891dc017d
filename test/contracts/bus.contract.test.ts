import { DynamicModule, INestMicroservice, Module, Type } from '@nestjs/common';
import { BaseRpcContext, Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { NestFactory } from '@nestjs/core';
import { BusClient, BusController, busHeaders, BusModule, BusPayloadError, BusReplyError, BusTimeoutError, BusTransportConfig, FAN_OUT, LARGE_PAYLOAD_DEFAULTS, microserviceOptions } from '@app/bus';
import { connect } from 'nats';
import { assertContract, ContractError, CONTRACTS, HealthHandlerModule, SERVICES, type ServiceName, type Subject } from '@app/contracts';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '@app/config';
import { CoreModule } from '@app/platform/core/core.module';
import { ExtractionModule } from '../../apps/extraction/src/extraction.module';
import { ResearchModule } from '../../apps/research/src/research.module';
import { MonitorsModule } from '../../apps/monitors/src/monitors.module';
import { FindallModule } from '../../apps/findall/src/findall.module';
import { handleCommand, openSqliteEventStore } from '@app/eventstore';
import { crawlRuns } from '@app/domain/crawl';
import { findAllRuns } from '@app/domain/findall';
import type { RunKind } from '@app/domain/run';
import { searchRuns } from '@app/domain/search-run';
import { SearchModule } from '../../apps/search/src/search.module';
import { jsonShape, loadFixture } from '../support/contract-fixtures';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server';

/**
 * The handler modules each service app imports, by service. A subject in CONTRACTS that no module
 * here answers fails the live checks below with "no responders", so a new contract can't go untested.
 */
const SERVICE_HANDLERS: Record<ServiceName, Array<DynamicModule | Type>> = {
  ...(Object.fromEntries(SERVICES.map((service) => [service, [HealthHandlerModule.for(service)]])) as Record<ServiceName, Array<DynamicModule | Type>>),
  // The real service modules (they answer their health subject too), on a scratch data dir.
  search: [SearchModule],
  extraction: [ExtractionModule],
  research: [ResearchModule],
  monitors: [MonitorsModule],
  findall: [FindallModule],
};
const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-contracts-'));
/** What the gateway sends with every call: the team, the request and a charge id. */
const callHeaders = () => ({ correlation_id: 'contract-test', request_id: 'contract-test', team_id: 'contract-team', key_id: 'contractkey1', charge_id: randomUUID() });
/**
 * A run to cancel: runs on the embedded index can end within milliseconds, so it is written
 * requested and already held (a 5 s lease) in one append, and no live worker can finish it first
 * (the team's run limit is raised: held runs count against it until their cancel is confirmed).
 */
async function heldRun(kind: RunKind, params: unknown): Promise<string> {
  const id = `${kind.idPrefix}${randomUUID()}`;
  const d = kind.decider;
  const requestAndHold = {
    initialState: d.initialState,
    evolve: d.evolve,
    decide: (_c: unknown, state: typeof d.initialState, context: { now: string; newId: () => string }) => {
      const request = { type: 'RequestRun' as const, run_id: id, team_id: 'contract-team', key_id: 'contractkey1', request_id: 'contract-test', params };
      const hold = { type: 'StartRun' as const, worker_id: 'contract-holder', lease_seconds: 5 };
      const requested = d.decide(request, state, context);
      return [...requested, ...d.decide(hold, requested.reduce(d.evolve, state), context)];
    },
  };
  const log = openSqliteEventStore(path.join(DATA_DIR, 'events.db'));
  try {
    await handleCommand(log, `${kind.streamPrefix}${id}`, requestAndHold, {});
  } finally {
    await log.close();
  }
  return id;
}

/** Requests about an entity need one that exists: made through the bus first, the golden shape kept. */
const PREPARE: Partial<Record<Subject, (bus: BusClient, golden: Record<string, unknown>) => Promise<Record<string, unknown>>>> = {
  'research.runs.cancel': async (_bus, golden) => ({ ...golden, id: await heldRun(searchRuns, loadFixture<{ params: unknown }>('research.runs.start', 'request').params) }),
  ...Object.fromEntries(
    (['monitors.update', 'monitors.pause', 'monitors.resume', 'monitors.delete', 'monitors.run'] as const).map((subject) => [
      subject,
      async (bus: BusClient, golden: Record<string, unknown>) => {
        // Resuming needs a paused monitor to change anything (and so to answer with a position).
        const request = { ...loadFixture<Record<string, unknown>>('monitors.create', 'request'), ...(subject === 'monitors.resume' && { status: 'paused' }) };
        const created = await bus.request<unknown, { monitor_id: string }>('monitors.create', request, { headers: callHeaders() });
        return { ...golden, monitor_id: created.monitor_id };
      },
    ]),
  ),
  'findall.runs.cancel': async (_bus, golden) => ({ ...golden, id: await heldRun(findAllRuns, loadFixture<{ params: unknown }>('findall.runs.start', 'request').params) }),
  'extraction.runs.cancel': async (_bus, golden) => ({ ...golden, id: await heldRun(crawlRuns, loadFixture<{ params: unknown }>('extraction.runs.start', 'request').params) }),
  // A reopen (extend, enrich) takes a completed run: one is started and followed in the log to its end.
  ...Object.fromEntries(
    (['findall.runs.reopen'] as const).map((subject) => [
      subject,
      async (bus: BusClient, golden: Record<string, unknown>) => {
        const { id: findall_id } = await bus.request<unknown, { id: string }>('findall.runs.start', loadFixture('findall.runs.start', 'request'), { headers: callHeaders() });
        const log = openSqliteEventStore(path.join(DATA_DIR, 'events.db'));
        try {
          for (let i = 0; i < 1_000; i++) {
            if ((await log.readStream(`findall-${findall_id}`)).some((e) => e.type === 'FindAllRunCompleted')) break;
            await new Promise((r) => setTimeout(r, 25));
          }
        } finally {
          await log.close();
        }
        return { ...golden, id: findall_id };
      },
    ]),
  ),
};
const requestFor = async (bus: BusClient, subject: Subject) => {
  const golden = loadFixture<Record<string, unknown>>(subject, 'request');
  return PREPARE[subject] ? PREPARE[subject]!(bus, golden) : golden;
};

const SUBJECTS = Object.keys(CONTRACTS) as Subject[];
const quiet = { logger: false as const };

async function startService(config: BusTransportConfig, service: string, modules: Array<DynamicModule | Type>): Promise<INestMicroservice> {
  @Module({
    imports: [
      CoreModule.forRoot(loadConfig({ DATA_DIR, RATE_LIMIT_RPS: '0', MAX_CONCURRENT_RUNS_PER_TEAM: '1000' })),
      BusModule.forRoot({ transport: config.bus, natsUrl: config.natsUrl, service, timeoutMs: 3000 }),
      ...modules,
    ],
  })
  class ServiceApp {}
  const app = await NestFactory.createMicroservice(ServiceApp, { ...microserviceOptions(config, service), ...quiet });
  await app.listen();
  return app;
}

let nats: NatsServerHandle;
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  await nats?.stop();
});

describe('golden fixtures', () => {
  it('the registry has at least the health subject of every service', () => {
    expect(SUBJECTS).toEqual(expect.arrayContaining(SERVICES.map((s) => `${s}.health`)));
  });

  describe.each(SUBJECTS)('%s', (subject) => {
    it('request fixture validates against the request DTO', () => {
      expect(() => assertContract(subject, 'request', loadFixture(subject, 'request'))).not.toThrow();
    });
    it('reply fixture validates against the reply DTO', () => {
      expect(() => assertContract(subject, 'reply', loadFixture(subject, 'reply'))).not.toThrow();
    });
  });

  it('assertContract rejects drift: a missing field, a wrong type, an undeclared field', () => {
    const golden = loadFixture<Record<string, unknown>>('search.health', 'reply');
    const { pid: _pid, ...missing } = golden;
    expect(() => assertContract('search.health', 'reply', missing)).toThrow(ContractError);
    expect(() => assertContract('search.health', 'reply', { ...golden, uptime_s: '17' })).toThrow(/uptime_s/);
    expect(() => assertContract('search.health', 'reply', { ...golden, extra: 1 })).toThrow(/extra should not exist/);
    expect(() => assertContract('search.health', 'request', { surprise: true })).toThrow(ContractError);
    expect(() => assertContract('search.health', 'request', null)).toThrow(/JSON object/);
  });
});

describe.each(['inprocess', 'nats'] as const)('live handlers over %s', (transport) => {
  let config: BusTransportConfig;
  let apps: INestMicroservice[] = [];
  let bus: BusClient;

  beforeAll(async () => {
    config = { bus: transport, natsUrl: nats.url };
    apps = await Promise.all(SERVICES.map((service) => startService(config, service, SERVICE_HANDLERS[service])));
    bus = new BusClient({ transport, natsUrl: nats.url, service: 'contract-test', timeoutMs: 3000 });
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await Promise.all(apps.map((app) => app.close()));
  });

  it.each(SUBJECTS)('%s: the golden request gets a reply that honours the contract and matches the golden shape', async (subject) => {
    const request = await requestFor(bus, subject);
    assertContract(subject, 'request', request); // the client side: what we send is what the contract says
    const reply = await bus.request<unknown, Record<string, unknown>>(subject, request, { headers: callHeaders() });
    assertContract(subject, 'reply', reply);
    const golden = loadFixture<Record<string, unknown>>(subject, 'reply');
    // Health replies are fixed in shape; richer replies depend on the data (a page that fails has
    // null fields), so there the strict DTO check above plus the same top-level keys is the contract.
    if (subject.endsWith('.health')) expect(jsonShape(reply)).toEqual(jsonShape(golden));
    else expect(Object.keys(reply).sort()).toEqual(Object.keys(golden).sort());
  }, 30_000);

  it('health replies name the service that answered', async () => {
    for (const service of SERVICES) {
      await expect(bus.request(`${service}.health`, {})).resolves.toMatchObject({ service, status: 'ok', pid: process.pid });
    }
  });
});

describe('standalone mode: one process, one app with every service module', () => {
  let app: INestMicroservice;
  let bus: BusClient;
  beforeAll(async () => {
    app = await startService({ bus: 'inprocess', natsUrl: '' }, 'standalone', SERVICES.flatMap((service) => SERVICE_HANDLERS[service]));
    bus = new BusClient({ transport: 'inprocess' });
  });
  afterAll(() => app.close());

  it.each(SUBJECTS)('%s is answered and honours the contract', async (subject) => {
    assertContract(subject, 'reply', await bus.request(subject, await requestFor(bus, subject), { headers: callHeaders() }));
  }, 30_000);
});

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
      return { data, types: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v])), headers: busHeaders(ctx) };
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
    const config: BusTransportConfig = { bus: transport, natsUrl: nats.url };
    apps = await Promise.all(['one', 'two'].map((n) => startService(config, 'qtest', [workerModule(`${transport}-${n}`)])));
    bus = new BusClient({ transport, natsUrl: nats.url, timeoutMs: 3000 });
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await Promise.all(apps.map((app) => app.close()));
  });

  it('two instances in one queue group split the requests, each request answered exactly once', async () => {
    const n = 60;
    const replies = await Promise.all(Array.from({ length: n }, (_, i) => bus.request<{ i: number }, { instance: string; i: number }>('qtest.work', { i })));
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
    while (mine().filter((e) => e.kind === 'fanout').length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50)); // a second grouped delivery would show up here
    const grouped = mine().filter((e) => e.kind === 'grouped');
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatchObject({ n: 1, headers: { correlation_id: 'c-ev' } });
    expect(mine().filter((e) => e.kind === 'fanout').map((e) => e.instance).sort()).toEqual([`${transport}-one`, `${transport}-two`]);
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
    await expect(bus.request('qtest.nobody', {}, { timeoutMs: 5000 })).rejects.toMatchObject({ name: 'BusTimeoutError', reason: 'no_responders' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('headers and JSON wire semantics are the same on both transports', async () => {
    const reply = await bus.request('qtest.echo', { when: new Date('2024-01-02T03:04:05.000Z'), gone: undefined, n: 1 }, { headers: { correlation_id: 'c-1', request_id: 'r-1' } });
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
    await expect(bus.request('qtest.refuse', {})).rejects.toEqual(new BusReplyError('qtest.refuse', 404, 'monitor m-1 not found'));
    await expect(bus.request('qtest.crash', {})).rejects.toMatchObject({ status: 500, detail: 'Internal Server Error' });
    await expect(bus.request('qtest.bigint', {}, { timeoutMs: 1000 })).rejects.toMatchObject({ status: 500, detail: 'Internal Server Error' });
  });

  it('a request larger than a NATS message (a task input near the body limit) reaches its handler whole', async () => {
    await expect(bus.request('qtest.measure', { text: 'ü'.repeat(1_000_000) }, { timeoutMs: 5000 })).resolves.toEqual({ bytes: 2_000_000, same: true });
  });

  // The object store is NATS's (in process, a payload of any size is handed over as it is): these two are NATS's tests only.
  const natsOnly = (name: string, test: () => Promise<void>) => transport === 'nats' && it(name, test);

  natsOnly('a request whose stored payload is gone (its TTL passed) is answered at once as a 502 saying so', async () => {
    const gone = { $bus_large_payload: { bucket: LARGE_PAYLOAD_DEFAULTS.bucket, name: 'expired-payload', bytes: 2_000_000 } };
    const started = Date.now();
    const err = (await bus.request('qtest.measure', gone, { timeoutMs: 5000 }).catch((e) => e)) as BusReplyError;
    expect(err).toBeInstanceOf(BusReplyError);
    expect(err).toMatchObject({ status: 502 });
    expect(err.detail).toMatch(/2000000-byte payload sent through the object store is gone/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a reply larger than a NATS message (an extract of a long page) arrives whole', async () => {
    // 3 MB of two-byte characters: three times NATS's default max_payload.
    const reply = await bus.request<{ bytes: number }, { text: string; bytes: number }>('qtest.large', { bytes: 3_000_000 }, { timeoutMs: 5000 });
    expect(reply.bytes).toBe(3_000_000);
    expect(Buffer.byteLength(reply.text)).toBe(3_000_000);
    expect(reply.text).toBe('é'.repeat(1_500_000));
  });

  natsOnly('the stored copy of a large reply is deleted once read', async () => {
    const nc = await connect({ servers: nats.url });
    try {
      const os = await nc.jetstream().views.os(LARGE_PAYLOAD_DEFAULTS.bucket);
      await expect(bus.request('qtest.large', { bytes: 3_000_000 }, { timeoutMs: 5000 })).resolves.toMatchObject({ bytes: 3_000_000 });
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
    app = await startService({ bus: 'nats', natsUrl: nats.url, largePayloads: { bucket: 'bus-test-small', maxBytes: 1_500_000 } }, 'qsmall', [workerModule('small')]);
    bus = new BusClient({ transport: 'nats', natsUrl: nats.url, timeoutMs: 3000 });
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await app?.close();
  });

  it('is refused at once as a 502 naming its size and the bus limit, not left to time out; smaller replies still pass', async () => {
    const started = Date.now();
    const err = (await bus.request('qtest.large', { bytes: 3_000_000 }, { timeoutMs: 10_000 }).catch((e) => e)) as BusReplyError;
    expect(err).toBeInstanceOf(BusReplyError);
    expect(err.status).toBe(502);
    expect(err.detail).toMatch(/^the reply \(\d{7} bytes\) is larger than a bus message \(\d+ bytes\) and could not be stored/);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(bus.request('qtest.large', { bytes: 1_200_000 })).resolves.toMatchObject({ bytes: 1_200_000 });
  });
});

describe('a large request from a client with bounds of its own', () => {
  let app: INestMicroservice;
  let bus: BusClient;
  beforeAll(async () => {
    app = await startService({ bus: 'nats', natsUrl: nats.url }, 'qbounds', [workerModule('bounds')]);
    bus = new BusClient({ transport: 'nats', natsUrl: nats.url, timeoutMs: 3000, largePayloads: { bucket: 'bus-test-client', maxBytes: 8_000_000, ttlMs: 60_000 } });
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await app?.close();
  });

  it('goes through a bucket made with those bounds (the deployment’s, whichever side makes it first)', async () => {
    await expect(bus.request('qtest.measure', { text: 'ü'.repeat(1_000_000) }, { timeoutMs: 5000 })).resolves.toEqual({ bytes: 2_000_000, same: true });
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
    app = await startService({ bus: 'nats', natsUrl: own.url }, 'search', [HealthHandlerModule.for('search')]);
    bus = new BusClient({ transport: 'nats', natsUrl: own.url, timeoutMs: 300 });
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
    for (const deadline = Date.now() + 10_000; !reply && Date.now() < deadline; ) {
      reply = await bus.request('search.health', {}).catch(() => new Promise((r) => setTimeout(r, 100)));
    }
    expect(reply).toMatchObject({ service: 'search', status: 'ok' });
  }, 20_000);
});
