/**
 * `npm run bench:deep`: deep search runs on the fixture web (local index crawled from it at boot,
 * extractive models), against the compiled standalone service, written to bench/results/deep.json:
 *  - wall time of a default deep run (POST to `run.completed` on its SSE stream), p50 over 10 runs;
 *  - time from the 202 to the first SSE event;
 *  - runs completed per minute with 20 submitted at once (one team: MAX_CONCURRENT_RUNS_PER_TEAM
 *    of them run at a time, the rest wait queued).
 * The local index hands the pipeline each page's text with its hit, so those runs read no page. A
 * second pass uses a SearXNG stand-in answering at once with fixture-web pages and no text: every
 * run then reads up to max_fetches pages through the extraction service (cached after first read).
 * Rerun: npm run bench:deep
 */
import { EventSource } from 'eventsource';
import { fixtureSeeds, startFixtureWeb } from '../test/support/fixture-web';
import { startService, type RunningService } from '../test/support/service-process';
import { startSlowSearxng } from '../test/support/slow-searxng';
import { atMost, percentile, report, type Row } from './bench-util';

const QUERIES = [
  ['sodium-ion battery cathode', 'Harborview battery plant'],
  ['warehouse robot picking arm'],
  ['tram extension airport', 'city council transport'],
  ['solar inverter home battery'],
  ['robots.txt crawling etiquette'],
];

async function post(svc: RunningService, queries: string[]): Promise<{ id: string; accepted: number }> {
  const response = await fetch(`${svc.baseUrl}/v1/search`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ depth: 'deep', queries }),
  });
  if (response.status !== 202) throw new Error(`deep run refused: ${response.status} ${await response.text()}`);
  const accepted = performance.now();
  return { id: ((await response.json()) as { search_id: string }).search_id, accepted };
}

/** Follows a run's SSE stream: when the first event and `run.completed` arrived. */
function follow(svc: RunningService, id: string): Promise<{ first: number; done: number; status: string }> {
  return new Promise((resolve, reject) => {
    let first = 0;
    const source = new EventSource(`${svc.baseUrl}/v1/searches/${id}/events`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${svc.demoKey}` },
        }),
    });
    const seen = () => (first ||= performance.now());
    for (const name of [
      'run.queued',
      'run.started',
      'plan.created',
      'serp.page',
      'page.fetched',
      'finding.graded',
      'results.updated',
    ])
      source.addEventListener(name, seen);
    for (const name of ['run.completed', 'run.failed', 'run.cancelled']) {
      source.addEventListener(name, () => {
        seen();
        source.close();
        resolve({ first, done: performance.now(), status: name });
      });
    }
    source.onerror = (error) => {
      source.close();
      reject(new Error(`SSE error on ${id}: ${String((error as { message?: string }).message)}`));
    };
  });
}

async function measure(svc: RunningService, label: string, rows: Row[], targets: boolean): Promise<void> {
  await follow(svc, (await post(svc, ['warm up'])).id);
  const wall: number[] = [];
  const firstEvent: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const { id, accepted } = await post(svc, QUERIES[i % QUERIES.length]);
    const run = await follow(svc, id);
    if (run.status !== 'run.completed') throw new Error(`run ${id} ended ${run.status}`);
    wall.push(run.done - started);
    firstEvent.push(run.first - accepted);
  }
  wall.sort((a, b) => a - b);
  firstEvent.sort((a, b) => a - b);
  const p50 = percentile(wall, 50);
  const first = percentile(firstEvent, 50);
  rows.push({
    metric: `${label}: deep run wall time p50`,
    value: p50,
    unit: 'ms',
    ...(targets ? atMost(p50, 2000) : {}),
    note: '10 runs, POST to run.completed',
  });
  rows.push({ metric: `${label}: deep run wall time max`, value: wall[wall.length - 1], unit: 'ms' });
  rows.push({
    metric: `${label}: first SSE event after the 202 p50`,
    value: first,
    unit: 'ms',
    ...(targets ? atMost(first, 100) : {}),
  });
  rows.push({
    metric: `${label}: first SSE event after the 202 max`,
    value: firstEvent[firstEvent.length - 1],
    unit: 'ms',
  });

  const burstStarted = performance.now();
  const accepted = await Promise.all(Array.from({ length: 20 }, (_, i) => post(svc, QUERIES[i % QUERIES.length])));
  const ends = await Promise.all(accepted.map(({ id }) => follow(svc, id)));
  const minutes = (performance.now() - burstStarted) / 60_000;
  const completed = ends.filter((end) => end.status === 'run.completed').length;
  rows.push({
    metric: `${label}: runs completed per minute (20 at once)`,
    value: completed / minutes,
    unit: 'runs/min',
    note: `${completed}/20 completed in ${(minutes * 60).toFixed(1)} s`,
  });
}

async function main(): Promise<void> {
  const web = await startFixtureWeb();
  const rows: Row[] = [];
  const base = { RATE_LIMIT_RPS: '0', FETCH_ALLOW_HOSTS: web.allowHosts.join(','), LOG_LEVEL: 'warn' };
  const local = await startService('standalone', { ...base, LOCAL_INDEX_SEEDS: fixtureSeeds(web) });
  try {
    await measure(local, 'local index', rows, true);
  } finally {
    await local.stop();
  }
  const stub = await startSlowSearxng(web, 0);
  const fetching = await startService('standalone', {
    ...base,
    SEARCH_PROVIDER: 'searxng',
    SEARXNG_URL: stub.url,
    SEARXNG_RPS: '0',
    SEARXNG_MAX_CONCURRENT: '32',
  });
  try {
    await measure(fetching, 'with page reads', rows, false);
  } finally {
    await fetching.stop();
    await stub.close();
    await web.stop();
  }
  report('deep', rows, { rerun: 'npm run bench:deep' });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
