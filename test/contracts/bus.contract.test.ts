import { DynamicModule, INestMicroservice, Type } from '@nestjs/common';
import { BusClient, BusTransportConfig } from '@app/bus';
import {
  assertContract,
  ContractError,
  CONTRACTS,
  HealthHandlerModule,
  SERVICES,
  serviceReady,
  type ServiceName,
  type Subject,
} from '@app/contracts';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
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
import { DATA_DIR, nats, startService, useNatsServer } from './bus-harness';

/**
 * The handler modules each service app imports, by service. A subject in CONTRACTS that no module
 * here answers fails the live checks below with "no responders", so a new contract can't go untested.
 */
const SERVICE_HANDLERS: Record<ServiceName, Array<DynamicModule | Type>> = {
  ...(Object.fromEntries(SERVICES.map((service) => [service, [HealthHandlerModule.for(service)]])) as Record<
    ServiceName,
    Array<DynamicModule | Type>
  >),
  // The real service modules (they answer their health subject too), on a scratch data dir.
  search: [SearchModule],
  extraction: [ExtractionModule],
  research: [ResearchModule],
  monitors: [MonitorsModule],
  findall: [FindallModule],
};
/** What the gateway sends with every call: the team, the request and a charge id. */
const callHeaders = () => ({
  correlation_id: 'contract-test',
  request_id: 'contract-test',
  team_id: 'contract-team',
  key_id: 'contractkey1',
  charge_id: randomUUID(),
});
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
      const request = {
        type: 'RequestRun' as const,
        run_id: id,
        team_id: 'contract-team',
        key_id: 'contractkey1',
        request_id: 'contract-test',
        params,
      };
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
const PREPARE: Partial<
  Record<Subject, (bus: BusClient, golden: Record<string, unknown>) => Promise<Record<string, unknown>>>
> = {
  'research.runs.cancel': async (_bus, golden) => ({
    ...golden,
    id: await heldRun(searchRuns, loadFixture<{ params: unknown }>('research.runs.start', 'request').params),
  }),
  ...Object.fromEntries(
    (['monitors.update', 'monitors.pause', 'monitors.resume', 'monitors.delete', 'monitors.run'] as const).map(
      (subject) => [
        subject,
        async (bus: BusClient, golden: Record<string, unknown>) => {
          // Resuming needs a paused monitor to change anything (and so to answer with a position).
          const request = {
            ...loadFixture<Record<string, unknown>>('monitors.create', 'request'),
            ...(subject === 'monitors.resume' && { status: 'paused' }),
          };
          const created = await bus.request<unknown, { monitor_id: string }>('monitors.create', request, {
            headers: callHeaders(),
          });
          return { ...golden, monitor_id: created.monitor_id };
        },
      ],
    ),
  ),
  'findall.runs.cancel': async (_bus, golden) => ({
    ...golden,
    id: await heldRun(findAllRuns, loadFixture<{ params: unknown }>('findall.runs.start', 'request').params),
  }),
  'extraction.runs.cancel': async (_bus, golden) => ({
    ...golden,
    id: await heldRun(crawlRuns, loadFixture<{ params: unknown }>('extraction.runs.start', 'request').params),
  }),
  // A reopen (extend, enrich) takes a completed run: one is started and followed in the log to its end.
  ...Object.fromEntries(
    (['findall.runs.reopen'] as const).map((subject) => [
      subject,
      async (bus: BusClient, golden: Record<string, unknown>) => {
        const { id: findall_id } = await bus.request<unknown, { id: string }>(
          'findall.runs.start',
          loadFixture('findall.runs.start', 'request'),
          { headers: callHeaders() },
        );
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

useNatsServer();

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
    expect(() =>
      assertContract('search.health', 'reply', {
        ...golden,
        status: 'starting',
        detail: 'waiting for the search index',
      }),
    ).not.toThrow();
    expect(() => assertContract('search.health', 'reply', { ...golden, status: 'busy' })).toThrow(/status/);
    expect(() => assertContract('search.health', 'request', { surprise: true })).toThrow(ContractError);
    expect(() => assertContract('search.health', 'request', null)).toThrow(/JSON object/);
  });
});

describe.each(['inprocess', 'nats'] as const)('live handlers over %s', (transport) => {
  let config: BusTransportConfig;
  let apps: INestMicroservice[] = [];
  let bus: BusClient;

  beforeAll(async () => {
    config = { bus: transport, natsServers: nats.url };
    apps = await Promise.all(SERVICES.map((service) => startService(config, service, SERVICE_HANDLERS[service])));
    bus = new BusClient({ transport, natsServers: nats.url, service: 'contract-test', timeoutMs: 3000 });
    // As the gateway's /readyz does: every service answers its health `ok` (the search index is built) first.
    for (const service of SERVICES) {
      for (let tries = 0; ; tries++) {
        const ready = await serviceReady(bus, service, 3000).then(
          () => true,
          (error: unknown) => (tries < 200 ? false : Promise.reject(error)),
        );
        if (ready) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });
  afterAll(async () => {
    await bus?.onApplicationShutdown();
    await Promise.all(apps.map((app) => app.close()));
  });

  it.each(SUBJECTS)(
    '%s: the golden request gets a reply that honours the contract and matches the golden shape',
    async (subject) => {
      const request = await requestFor(bus, subject);
      assertContract(subject, 'request', request); // the client side: what we send is what the contract says
      const reply = await bus.request<unknown, Record<string, unknown>>(subject, request, { headers: callHeaders() });
      assertContract(subject, 'reply', reply);
      const golden = loadFixture<Record<string, unknown>>(subject, 'reply');
      // Health replies are fixed in shape; richer replies depend on the data (a page that fails has
      // null fields), so there the strict DTO check above plus the same top-level keys is the contract.
      if (subject.endsWith('.health')) expect(jsonShape(reply)).toEqual(jsonShape(golden));
      else expect(Object.keys(reply).sort()).toEqual(Object.keys(golden).sort());
    },
    30_000,
  );

  it('health replies name the service that answered', async () => {
    for (const service of SERVICES) {
      await expect(bus.request(`${service}.health`, {})).resolves.toMatchObject({
        service,
        status: 'ok',
        pid: process.pid,
      });
    }
  });
});

describe('standalone mode: one process, one app with every service module', () => {
  let app: INestMicroservice;
  let bus: BusClient;
  beforeAll(async () => {
    app = await startService(
      { bus: 'inprocess', natsServers: '' },
      'standalone',
      SERVICES.flatMap((service) => SERVICE_HANDLERS[service]),
    );
    bus = new BusClient({ transport: 'inprocess' });
  });
  afterAll(() => app.close());

  it.each(SUBJECTS)(
    '%s is answered and honours the contract',
    async (subject) => {
      assertContract(
        subject,
        'reply',
        await bus.request(subject, await requestFor(bus, subject), { headers: callHeaders() }),
      );
    },
    30_000,
  );
});
