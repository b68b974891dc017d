/**
 * `npm run bench:load`: a mixed workload against the cluster (one process per service over NATS,
 * the shared SQLite log) for LOAD_BENCH_SECONDS (default 300):
 *  - instant searches (4 clients back to back), extracts (1 client), deep runs followed to their
 *    end on SSE (2 clients: a run, its stream, the next), task runs (1 client, polled to the end),
 *    FindAll runs (1 client, polled to the end);
 *  - per route: requests, throughput, p50/p99 latency (for runs: POST to the terminal event), errors;
 *  - RSS of every process at the end; event-log growth (events appended) per minute.
 * The web is the fixture web on loopback; searches go to a SearXNG stand-in answering at once
 * with its pages (the runs fetch and read them through the extraction service).
 * Rerun: npm run bench:load   (LOAD_BENCH_SECONDS=60 for a short run)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { EventSource } from 'eventsource';
import { startFixtureWeb } from '../test/support/fixture-web';
import { startService, type RunningService } from '../test/support/service-process';
import { startSlowSearxng } from '../test/support/slow-searxng';
import { machine, percentile, ROOT } from './bench-util';

const SECONDS = Number(process.env.LOAD_BENCH_SECONDS ?? 300);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RouteStats {
  latencies: number[];
  errors: number;
}

const stats = new Map<string, RouteStats>();
const record = (route: string, ms: number, ok: boolean) => {
  const s = stats.get(route) ?? { latencies: [], errors: 0 };
  if (ok) s.latencies.push(ms);
  else s.errors++;
  stats.set(route, s);
};

async function call(
  svc: RunningService,
  route: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<Record<string, any> | undefined> {
  const started = performance.now();
  try {
    const response = await fetch(`${svc.baseUrl}${url}`, {
      method,
      headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const json = (await response.json()) as Record<string, any>;
    record(route, performance.now() - started, response.status < 400);
    return response.status < 400 ? json : undefined;
  } catch {
    record(route, performance.now() - started, false);
    return undefined;
  }
}

/** A deep run's SSE stream to its terminal event. */
function follow(svc: RunningService, id: string): Promise<string> {
  return new Promise((resolve) => {
    const source = new EventSource(`${svc.baseUrl}/v1/searches/${id}/events`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${svc.demoKey}` },
        }),
    });
    const timer = setTimeout(() => (source.close(), resolve('timeout')), 120_000);
    for (const name of ['run.completed', 'run.failed', 'run.cancelled']) {
      source.addEventListener(name, () => {
        clearTimeout(timer);
        source.close();
        resolve(name);
      });
    }
  });
}

async function poll(svc: RunningService, url: string, deadline: number): Promise<string> {
  for (;;) {
    const view = await fetch(`${svc.baseUrl}${url}`, { headers: { Authorization: `Bearer ${svc.demoKey}` } }).then(
      (r) => r.json() as Promise<Record<string, any>>,
      () => ({}) as Record<string, any>,
    );
    // A FindAll run's terminal status is an object ({status, termination_reason, ...}).
    const status = typeof view.status === 'object' && view.status ? view.status.status : view.status;
    if (['completed', 'failed', 'cancelled'].includes(status)) return status;
    if (Date.now() > deadline) return 'timeout';
    await sleep(250);
  }
}

const rssMb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
};

async function main(): Promise<void> {
  const web = await startFixtureWeb();
  const searxng = await startSlowSearxng(web, 0);
  const svc = await startService(
    'cluster',
    {
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: searxng.url,
      SEARXNG_RPS: '0',
      SEARXNG_MAX_CONCURRENT: '32',
      FETCH_ALLOW_HOSTS: web.allowHosts.join(','),
      MAX_CONCURRENT_RUNS_PER_TEAM: '100',
      LOG_LEVEL: 'info',
    },
    { responseCheck: false },
  );
  const db = new Database(path.join(svc.dataDir, 'events.db'), { readonly: true });
  const head = () => Number(db.prepare('SELECT COALESCE(MAX(position), 0) FROM events').pluck().get());
  const urls = web.urls().filter((u) => !/internal|drafts|pdf/.test(u));
  const topics = ['battery', 'robot', 'solar', 'tram', 'library', 'ferry', 'heat pump', 'bakery'];
  let stop = false;
  const end = Date.now() + SECONDS * 1000;
  const clients: Array<Promise<void>> = [];
  const loop = (body: (i: number) => Promise<void>) =>
    clients.push(
      (async () => {
        for (let i = 0; !stop; i++) await body(i);
      })(),
    );
  for (let c = 0; c < 4; c++)
    loop(
      async (i) =>
        void (await call(svc, 'POST /v1/search (instant)', 'POST', '/v1/search', {
          depth: 'instant',
          queries: [`${topics[(i + c) % topics.length]} ${c} ${i}`],
        })),
    );
  loop(
    async (i) =>
      void (await call(svc, 'POST /v1/extract', 'POST', '/v1/extract', {
        urls: [urls[i % urls.length]],
        objective: 'what it does',
      })),
  );
  for (let c = 0; c < 2; c++) {
    loop(async (i) => {
      const started = performance.now();
      const run = await call(svc, 'POST /v1/search (deep, accepted)', 'POST', '/v1/search', {
        depth: 'deep',
        queries: [topics[(i * 2 + c) % topics.length]],
        max_subqueries: 3,
        max_fetches: 8,
      });
      if (!run) return void (await sleep(500));
      const ended = await follow(svc, run.search_id);
      record('deep run, POST to run.completed (SSE)', performance.now() - started, ended === 'run.completed');
    });
  }
  loop(async (i) => {
    const started = performance.now();
    const run = await call(svc, 'POST /v1/tasks/runs (accepted)', 'POST', '/v1/tasks/runs', {
      task: `What does the ${topics[i % topics.length]} company make?`,
      processor: 'base',
    });
    if (!run) return void (await sleep(500));
    const status = await poll(svc, `/v1/tasks/${run.task_id}`, Date.now() + 120_000);
    record('task run, POST to completed', performance.now() - started, status === 'completed');
  });
  loop(async (i) => {
    const started = performance.now();
    const run = await call(svc, 'POST /v1/findall/runs (accepted)', 'POST', '/v1/findall/runs', {
      query: `companies that make ${topics[i % topics.length]} products`,
      limit: 5,
    });
    if (!run) return void (await sleep(500));
    const status = await poll(svc, `/v1/findall/runs/${run.findall_id}`, Date.now() + 120_000);
    record('FindAll run, POST to completed', performance.now() - started, status === 'completed');
  });

  // Event-log growth per minute (or per sample, on a shorter run).
  const sampleMs = Math.min(60_000, (SECONDS * 1000) / 2);
  const growth: number[] = [];
  let last = head();
  while (Date.now() < end) {
    await sleep(Math.min(sampleMs, end - Date.now()));
    const now = head();
    growth.push(((now - last) * 60_000) / sampleMs);
    last = now;
  }
  const rss = [...svc.servicePids()].map(([service, pid]) => ({ service, pid, rssMb: rssMb(pid) }));
  stop = true;
  await Promise.all(clients);
  db.close();
  await svc.stop();
  await searxng.close();
  await web.stop();

  const m = machine();
  const lines = [
    `load — ${new Date().toISOString()}`,
    `machine: ${m.cpus} cores (${m.cpu_model}), ${m.memory_gib} GiB, node ${m.node}, ${m.platform}`,
    `cluster mode (one process per service, NATS, shared SQLite log), ${SECONDS} s of mixed load`,
    '',
    '| route | requests | per s | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|---|',
  ];
  const rows = [...stats].map(([route, s]) => {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    return {
      route,
      requests: s.latencies.length + s.errors,
      per_s: s.latencies.length / SECONDS,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      errors: s.errors,
    };
  });
  for (const r of rows)
    lines.push(
      `| ${r.route} | ${r.requests} | ${r.per_s.toFixed(2)} | ${Math.round(r.p50)} | ${Math.round(r.p99)} | ${r.errors} |`,
    );
  lines.push('', '| process | RSS MB |', '|---|---|', ...rss.map((r) => `| ${r.service} | ${Math.round(r.rssMb)} |`));
  lines.push(
    '',
    `event log growth: ${growth.map((g) => Math.round(g).toLocaleString('en-US')).join(', ')} events per minute (one figure per ${sampleMs / 1000} s sample)`,
  );
  process.stdout.write(lines.join('\n') + '\n');
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'load.json'),
    JSON.stringify(
      {
        name: 'load',
        at: new Date().toISOString(),
        machine: m,
        seconds: SECONDS,
        routes: rows,
        rss,
        growth_per_minute: growth,
      },
      null,
      2,
    ) + '\n',
  );
  fs.writeFileSync(path.join(dir, 'load.md'), lines.join('\n') + '\n');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  },
);
