import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(240_000);

type HistoryEvent = { type: string; data: { slot?: string | null; slots_covered?: number; worker_id?: string } };

/**
 * Two monitors services as separate OS processes (cluster, REPLICAS=monitors=2) reading one clock
 * file: the test moves the clock one hour at a time over 100 slots, and every monitor must run
 * exactly once per slot, whichever replica wins it.
 */
describe('monitor scheduling across two monitors replicas (cluster, REPLICAS=monitors=2)', () => {
  let svc: RunningService;
  let search: ReplayServer;
  let clockFile: string;
  const SLOTS = 100;

  beforeAll(async () => {
    search = await ReplayServer.start({
      routes: [
        {
          path: '/search',
          respond: (req) => ({
            body: {
              query: req.query.q,
              number_of_results: 1,
              results: [
                {
                  url: `https://news.example.test/${String(req.query.q).length}`,
                  title: 'Story',
                  content: 'Story.',
                  engine: 'stub',
                  engines: ['stub'],
                  score: 1,
                  category: 'general',
                },
              ],
              answers: [],
              corrections: [],
              infoboxes: [],
              suggestions: [],
              unresponsive_engines: [],
            },
          }),
        },
      ],
    });
    clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wr-clock-')), 'now');
    fs.writeFileSync(clockFile, '2026-06-01T00:00:00.000Z');
    svc = await startService('cluster', {
      REPLICAS: 'monitors=2',
      MONITOR_CLOCK_FILE: clockFile,
      MONITOR_TICK_MS: '20',
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: search.url,
      SEARXNG_RPS: '0',
    });
    for (let i = 0; i < 200 && svc.servicePidHistory('monitors').length < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await search?.close();
  });

  it(`over ${SLOTS} due slots every monitor runs exactly once per slot`, async () => {
    expect(new Set(svc.servicePidHistory('monitors')).size).toBe(2);
    const headers = { ...bearer(svc.demoKey), 'Content-Type': 'application/json' };
    const monitors: { id: string; createdAt: string }[] = [];
    for (const query of ['sodium-ion', 'tram extension', 'harbour regatta']) {
      const response = await fetch(`${svc.baseUrl}/v1/monitors`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, cadence: 'hourly' }),
      });
      expect(response.status).toBe(201);
      monitors.push(await json(response));
    }
    const anchor = Date.parse(monitors[0]!.createdAt);
    expect(monitors.every((m) => m.createdAt === monitors[0]!.createdAt)).toBe(true);
    const history = async (id: string) =>
      (await json(await fetch(`${svc.baseUrl}/v1/monitors/${id}/history`, { headers }))).events as HistoryEvent[];
    for (let k = 1; k <= SLOTS; k++) {
      fs.writeFileSync(clockFile, new Date(anchor + k * 3_600_000).toISOString());
      for (const monitor of monitors) {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const recorded = (await history(monitor.id)).filter((e) => e.type === 'MonitorEventRecorded').length;
          if (recorded >= k) break;
          if (Date.now() > deadline) throw new Error(`monitor ${monitor.id} did not run for slot ${k}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    const winners = new Map<string, number>();
    for (const monitor of monitors) {
      const starts = (await history(monitor.id)).filter((e) => e.type === 'MonitorRunStarted');
      expect(starts).toHaveLength(SLOTS);
      expect(starts.map((e) => e.data.slots_covered)).toEqual(Array(SLOTS).fill(1));
      expect(starts.map((e) => e.data.slot)).toEqual(
        Array.from({ length: SLOTS }, (_, i) => new Date(anchor + (i + 1) * 3_600_000).toISOString()),
      );
      for (const start of starts) winners.set(start.data.worker_id!, (winners.get(start.data.worker_id!) ?? 0) + 1);
    }
    // Both replicas competed for the slots (which one wins a slot is up to timing).
    process.stdout.write(`slots won per monitors replica: ${JSON.stringify(Object.fromEntries(winners))}\n`);
    expect([...winners.values()].reduce((a, b) => a + b, 0)).toBe(SLOTS * monitors.length);
  });
});
