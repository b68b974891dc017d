/**
 * `npm run bench:platform`: the platform's speed on this machine, printed as a table and written
 * to bench/results/platform.json. What it measures:
 *  - sqlite event log: single-event appends (new stream each, no-stream check, as charges are),
 *    100-event batch appends, read-all; also single appends with synchronous=FULL for comparison;
 *  - projection rebuild (the gateway's projections over CreditsCharged events, into memory);
 *  - projection lag, append to visible: in-process (projector.waitFor) and from another process
 *    appending to the same file (a live subscription, as the gateway sees the keys CLI);
 *  - authenticated GET /v1/usage with autocannon against the compiled service, standalone and
 *    cluster (gateway + services as OS processes over NATS): throughput at 50 connections,
 *    p50/p99 latency at 10 connections. The log holds 18,000 charges of 200 teams.
 * Rerun: npm run bench:platform   (BENCH_HTTP_SECONDS=10 by default)
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon from 'autocannon';
import { type NewEvent, openSqliteEventStore } from '@app/eventstore';
import { MemoryReadStore, Projector } from '@app/readmodels';
import { platformProjections } from '@app/readmodels/projections';
import { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import { startService, type Mode } from '../test/support/service-process';
import { atLeast, atMost, percentile, report, type Row } from './bench-util';

const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const quiet = { log: () => undefined, warn: () => undefined, error: (m: unknown) => console.error(m) };

const charge = (team: string, day: number, sku: string, credits: number): NewEvent => ({
  id: randomUUID(),
  type: 'CreditsCharged',
  data: {
    team_id: team,
    request_id: randomUUID(),
    items: [{ sku, quantity: 1, credits }],
    credits,
    at: new Date(Date.UTC(2026, 0, 1) + day * 86_400_000 + 3_600_000).toISOString(),
  },
  metadata: { team_id: team, at: new Date().toISOString(), schema: 1 },
});

const tmpFile = (name: string) => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wr-bench-')), name);

async function appends(rows: Row[]): Promise<string> {
  for (const synchronous of ['NORMAL', 'FULL'] as const) {
    const store = openSqliteEventStore(tmpFile('events.db'), { synchronous });
    const n = synchronous === 'NORMAL' ? 20_000 : 3_000;
    const started = performance.now();
    for (let i = 0; i < n; i++)
      await store.append(`charge-bench-${i}`, [charge('bench', i % 30, 'sku_search', 1)], 'no_stream');
    const rate = n / ((performance.now() - started) / 1000);
    rows.push({
      metric: `append 1 event (synchronous=${synchronous})`,
      value: rate,
      unit: 'events/s',
      ...(synchronous === 'NORMAL' ? atLeast(rate, 3000) : {}),
      note: `${n} appends, no-stream check`,
    });
    await store.close();
  }

  const file = tmpFile('events.db');
  const store = openSqliteEventStore(file);
  const batches = 2_000;
  let started = performance.now();
  for (let b = 0; b < batches; b++) {
    const events = Array.from({ length: 100 }, (_, i) =>
      charge(
        `team-${(b * 100 + i) % 200}`,
        (b + i) % 30,
        ['sku_search', 'sku_extract', 'sku_objective_rerank'][i % 3],
        1 + (i % 3),
      ),
    );
    await store.append(`bench-batch-${b}`, events, 'no_stream');
  }
  const batchRate = (batches * 100) / ((performance.now() - started) / 1000);
  rows.push({
    metric: 'append 100-event batches',
    value: batchRate,
    unit: 'events/s',
    ...atLeast(batchRate, 50_000),
    note: '200,000 events',
  });

  started = performance.now();
  let read = 0;
  let after: bigint | undefined;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 4096 });
    if (batch.length === 0) break;
    read += batch.length;
    after = batch[batch.length - 1].position;
  }
  const readRate = read / ((performance.now() - started) / 1000);
  rows.push({
    metric: 'read all',
    value: readRate,
    unit: 'events/s',
    ...atLeast(readRate, 200_000),
    note: `${read.toLocaleString('en-US')} events, parsed`,
  });

  const reads = new MemoryReadStore();
  const projector = new Projector(store, reads, platformProjections(), { logger: quiet });
  started = performance.now();
  await projector.start();
  await projector.caughtUp();
  const rebuildRate = read / ((performance.now() - started) / 1000);
  rows.push({
    metric: 'projection rebuild',
    value: rebuildRate,
    unit: 'events/s',
    ...atLeast(rebuildRate, 50_000),
    note: `${read.toLocaleString('en-US')} charges -> ${await reads.count('usage_daily')} usage docs`,
  });
  await projector.stop();
  await store.close();
  return file;
}

async function lag(rows: Row[]): Promise<void> {
  const file = tmpFile('events.db');
  const store = openSqliteEventStore(file);
  const projector = new Projector(store, new MemoryReadStore(), platformProjections(), { logger: quiet });
  await projector.start();
  await projector.caughtUp();
  const samples: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const started = performance.now();
    const { position } = await store.append(`charge-lag-${i}`, [charge('lag', i % 30, 'sku_search', 1)], 'no_stream');
    if (!(await projector.waitFor(position, 5_000))) throw new Error('projection lag sample timed out');
    samples.push(performance.now() - started);
    if (i % 50 === 0) await new Promise((r) => setTimeout(r, 1));
  }
  samples.sort((a, b) => a - b);
  rows.push({
    metric: 'projection lag p50 (in-process)',
    value: percentile(samples, 50),
    unit: 'ms',
    note: 'append -> applied, 2,000 samples',
  });
  rows.push({
    metric: 'projection lag p99 (in-process)',
    value: percentile(samples, 99),
    unit: 'ms',
    ...atMost(percentile(samples, 99), 50),
  });
  await projector.stop();

  // Another process appends (as the keys CLI does); this one sees it through its live subscription.
  const subscription = store.subscribeToAll({ after: await store.headPosition() });
  const child = fork(__filename, ['--lag-writer', file], { stdio: 'inherit' });
  const cross: number[] = [];
  for await (const event of subscription) {
    if (event.type !== 'LagProbe') continue;
    cross.push(performance.timeOrigin + performance.now() - (event.data as { sent: number }).sent);
    if (cross.length === 500) break;
  }
  await subscription.close();
  child.kill();
  cross.sort((a, b) => a - b);
  rows.push({
    metric: 'projection lag p50 (other process)',
    value: percentile(cross, 50),
    unit: 'ms',
    note: '500 samples, data_version polling',
  });
  rows.push({
    metric: 'projection lag p99 (other process)',
    value: percentile(cross, 99),
    unit: 'ms',
    ...atMost(percentile(cross, 99), 50),
  });
  await store.close();
}

async function lagWriter(file: string): Promise<void> {
  const store = openSqliteEventStore(file);
  for (let i = 0; i < 500; i++) {
    await store.append(
      `lag-probe-${i}`,
      [{ id: randomUUID(), type: 'LagProbe', data: { sent: performance.timeOrigin + performance.now() } }],
      'no_stream',
    );
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
  }
  await store.close();
}

/** 200 teams x 30 days x 3 SKUs of charges, plus the key the benchmark calls with. */
async function seed(dataDir: string): Promise<{ key: string }> {
  const store = openSqliteEventStore(path.join(dataDir, 'events.db'));
  for (let team = 0; team < 200; team++) {
    const events: NewEvent[] = [];
    for (let day = 0; day < 30; day++)
      for (const sku of ['sku_search', 'sku_extract', 'sku_objective_rerank'])
        events.push(charge(team === 0 ? 'bench' : `team-${team}`, day, sku, 2));
    await store.append(`charges-seed-${team}`, events, 'no_stream');
  }
  const { key } = await new TeamAdmin(store, SecretBox.load(undefined, dataDir)).createKey('bench', 'bench');
  await store.close();
  return { key };
}

async function http(mode: Mode, rows: Row[], standaloneRps?: number): Promise<number> {
  const svc = await startService(mode, { RATE_LIMIT_RPS: '0' }, { prepare: seed, responseCheck: false });
  try {
    const url = `${svc.baseUrl}/v1/usage?from=2026-01-01&to=2026-01-30`;
    const body = (await (await fetch(url, { headers: { Authorization: `Bearer ${svc.demoKey}` } })).json()) as {
      days: unknown[];
    };
    if (body.days.length !== 90) throw new Error(`unexpected usage body: ${JSON.stringify(body).slice(0, 200)}`);
    const run = (connections: number, duration: number) =>
      autocannon({ url, connections, duration, headers: { Authorization: `Bearer ${svc.demoKey}` } });
    await run(10, 2); // warm-up
    const load = await run(50, HTTP_SECONDS);
    const latency = await run(10, HTTP_SECONDS);
    if (load.non2xx > 0 || latency.non2xx > 0)
      throw new Error(`${mode}: ${load.non2xx + latency.non2xx} non-2xx answers`);
    const rps = load.requests.average;
    rows.push({
      metric: `GET /v1/usage ${mode} throughput`,
      value: rps,
      unit: 'req/s',
      ...(standaloneRps === undefined
        ? atLeast(rps, 3000)
        : { target: `>= 60% of standalone`, pass: rps >= 0.6 * standaloneRps }),
      note:
        standaloneRps === undefined
          ? '50 connections'
          : `50 connections, ${Math.round((100 * rps) / standaloneRps)}% of standalone`,
    });
    rows.push({
      metric: `GET /v1/usage ${mode} p50`,
      value: latency.latency.p50,
      unit: 'ms',
      note: `10 connections, ${Math.round(latency.requests.average)} req/s`,
    });
    rows.push({
      metric: `GET /v1/usage ${mode} p99`,
      value: latency.latency.p99,
      unit: 'ms',
      ...(mode === 'standalone' ? atMost(latency.latency.p99, 20) : {}),
    });
    return rps;
  } finally {
    await svc.stop();
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === '--lag-writer') return lagWriter(process.argv[3]);
  const rows: Row[] = [];
  await appends(rows);
  await lag(rows);
  const standalone = await http('standalone', rows);
  await http('cluster', rows, standalone);
  report('platform', rows, { http_seconds: HTTP_SECONDS, rerun: 'npm run bench:platform' });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
