/**
 * `npm run bench:boot`: boot to ready of the standalone service on a log of 1,000,000 events
 * (BOOT_EVENTS to change it), written to bench/results/boot.json:
 *  - first boot: no read-model snapshot yet, the whole log is projected into memory;
 *  - second boot, after 10,000 more events were appended while it was down: the snapshot written
 *    at the first shutdown is restored and only that tail is replayed (target <= 5 s);
 *  - both boots answer GET /v1/usage with the same figures a full replay gives (checked).
 * The log is charges (CreditsCharged) of 1,000 teams over 30 days: 90,000 usage documents.
 * "Boot to ready" is from spawning the process to its first 200 on /readyz.
 * Rerun: npm run bench:boot
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type NewEvent, openSqliteEventStore } from '@app/eventstore';
import { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import { startService } from '../test/support/service-process';
import { atMost, report, type Row } from './bench-util';

const EVENTS = Number(process.env.BOOT_EVENTS ?? 1_000_000);
const TAIL = 10_000;
const TEAMS = 1_000;
const SKUS = ['sku_search', 'sku_extract', 'sku_objective_rerank'];

const charge = (i: number): NewEvent => {
  const team = i % TEAMS === 0 ? 'bench' : `team-${i % TEAMS}`;
  const day = Math.floor(i / TEAMS) % 30;
  const sku = SKUS[i % SKUS.length]!;
  return {
    id: randomUUID(),
    type: 'CreditsCharged',
    data: {
      team_id: team,
      request_id: randomUUID(),
      items: [{ sku, quantity: 1, credits: 1 }],
      credits: 1,
      at: new Date(Date.UTC(2026, 0, 1) + day * 86_400_000 + 3_600_000).toISOString(),
    },
    metadata: { team_id: team, at: new Date().toISOString(), schema: 1 },
  };
};

async function appendCharges(dataDir: string, from: number, count: number): Promise<number> {
  const store = openSqliteEventStore(path.join(dataDir, 'events.db'));
  const started = performance.now();
  for (let i = from; i < from + count; i += 1_000) {
    await store.append(
      `charges-${i}`,
      Array.from({ length: Math.min(1_000, from + count - i) }, (_, j) => charge(i + j)),
      'no_stream',
    );
  }
  await store.close();
  return performance.now() - started;
}

async function usageTotal(baseUrl: string, key: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/usage?from=2026-01-01&to=2026-01-30`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  const body = (await response.json()) as { total_credits: number };
  return body.total_credits;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-boot-'));
  const seeded = await appendCharges(dataDir, 0, EVENTS);
  const seedStore = openSqliteEventStore(path.join(dataDir, 'events.db'));
  const { key } = await new TeamAdmin(seedStore, SecretBox.load(undefined, dataDir)).createKey('bench', 'bench');
  await seedStore.close();
  rows.push({
    metric: 'log written',
    value: EVENTS,
    unit: 'events',
    note: `${Math.round(EVENTS / (seeded / 1000)).toLocaleString('en-US')} events/s, 1,000-event batches`,
  });

  const expected = (n: number) => Math.ceil(n / TEAMS);
  let started = performance.now();
  let svc = await startService(
    'standalone',
    { LOG_LEVEL: 'warn' },
    { dataDir, key, readyTimeoutMs: 300_000, responseCheck: false },
  );
  const fullMs = performance.now() - started;
  const firstTotal = await usageTotal(svc.baseUrl, key);
  await svc.stop();
  if (firstTotal !== expected(EVENTS))
    throw new Error(`first boot: team bench has ${firstTotal} credits, expected ${expected(EVENTS)}`);
  rows.push({
    metric: 'boot to ready, no snapshot (whole log replayed)',
    value: fullMs,
    unit: 'ms',
    note: `${EVENTS.toLocaleString('en-US')} events`,
  });
  const snapshot = path.join(dataDir, 'readmodels', 'standalone.snapshot.json');
  if (!fs.existsSync(snapshot)) throw new Error('no read-model snapshot was written at shutdown');
  rows.push({ metric: 'read-model snapshot size', value: fs.statSync(snapshot).size / 2 ** 20, unit: 'MiB' });

  await appendCharges(dataDir, EVENTS, TAIL);
  started = performance.now();
  svc = await startService(
    'standalone',
    { LOG_LEVEL: 'warn' },
    { dataDir, key, readyTimeoutMs: 300_000, responseCheck: false },
  );
  const tailMs = performance.now() - started;
  const secondTotal = await usageTotal(svc.baseUrl, key);
  await svc.stop();
  if (secondTotal !== expected(EVENTS + TAIL))
    throw new Error(`second boot: team bench has ${secondTotal} credits, expected ${expected(EVENTS + TAIL)}`);
  rows.push({
    metric: 'boot to ready from the snapshot (tail replayed)',
    value: tailMs,
    unit: 'ms',
    ...atMost(tailMs, 5_000),
    note: `${TAIL.toLocaleString('en-US')} events after the snapshot; usage checked`,
  });
  fs.rmSync(dataDir, { recursive: true, force: true });
  report('boot', rows, { rerun: 'npm run bench:boot', events: EVENTS });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
