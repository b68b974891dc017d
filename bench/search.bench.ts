/**
 * `npm run bench:search`: POST /v1/search (instant, 1 query, limit 10) against the compiled
 * service, side by side in one run, written to bench/results/search.json:
 *  (a) the local index over 5,000 generated pages (LOCAL_INDEX_DIR): throughput at 50
 *      connections, p50/p99 at 10 connections, standalone and cluster; and the overhead: service
 *      p50 minus the p50 of the same provider called in-process on the same pages and queries;
 *  (b) the searxng adapter against a loopback stub replaying a recorded SearXNG answer after
 *      100 ms: service p50 against the stub's own p50 (every request a new query, so no cache).
 * The pages are made from the sentences of the demo corpus and the fixture web, shuffled into
 * 5,000 documents with titles and topics, so queries match realistic numbers of pages.
 * Rerun: npm run bench:search   (BENCH_HTTP_SECONDS=10 by default)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon from 'autocannon';
import { LocalSearchProvider } from '@app/search-engine';
import { ReplayServer } from '../test/support/replay-server';
import { startService, type Mode } from '../test/support/service-process';
import { atLeast, atMost, generatedPage, percentile, report, ROOT, type Row, sourcePages } from './bench-util';

const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const PAGES = 5_000;
const QUERIES = [
  'sodium-ion battery cathode',
  'warehouse robot picking arm',
  'tram extension airport',
  'solar inverter home battery',
  'webhook signature retries',
  'robots.txt crawling etiquette',
  'quarterly revenue growth',
  'library renovation makerspace',
  'BM25 length normalisation',
  'monitor schedule cron',
  'harbour regatta crowd',
  'rye sourdough starter',
];

/** Deterministic pseudo-random numbers, so every run indexes the same pages. */
function rng(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** The demo corpus and fixture web pages, as titles and sentences. */
const sources = () => sourcePages(['corpus', 'test/fixtures/web']);

function pseudoWord(random: () => number): string {
  const syllables = [
    'ka',
    'lor',
    'vin',
    'de',
    'mar',
    'tis',
    'ol',
    'ben',
    'ru',
    'sa',
    'quen',
    'ath',
    'po',
    'lim',
    'ger',
    'ny',
  ];
  const word = Array.from(
    { length: 2 + Math.floor(random() * 2) },
    () => syllables[Math.floor(random() * syllables.length)],
  ).join('');
  return word[0].toUpperCase() + word.slice(1);
}

/** The 5,000 pages of this benchmark (see `generatedPage`), written into `dir`. */
export function writePages(dir: string): void {
  const docs = sources();
  const random = rng(42);
  for (let i = 0; i < PAGES; i++) {
    const source = docs[i % docs.length];
    const other = docs[Math.floor(random() * docs.length)];
    const names = Array.from({ length: 4 }, () => pseudoWord(random));
    fs.writeFileSync(path.join(dir, `page-${i}.html`), generatedPage(i, source, other, random, names, 97));
  }
}

const body = (query: string) => JSON.stringify({ queries: [query], depth: 'instant', limit: 10 });
/** Distinct queries (nothing answered from a cache): a common query plus a rarer word. */
const UNIQUE = Array.from(
  { length: 1_500 },
  (_, i) =>
    `${QUERIES[i % QUERIES.length]} ${['grid', 'cell', 'street', 'fleet', 'paper', 'price', 'team', 'city', 'energy', 'search'][Math.floor(i / QUERIES.length) % 10]} ${i}`,
);

async function inProcessProviderP50(dir: string): Promise<number> {
  const provider = new LocalSearchProvider({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'wr-bench-idx-')),
    indexDir: dir,
  });
  await provider.ready();
  for (let i = 0; i < 200; i++)
    await provider.search({ query: UNIQUE[i], page: 1, limit: 10, country: 'us', language: 'en' });
  const samples: number[] = [];
  for (const query of UNIQUE) {
    const started = performance.now();
    await provider.search({ query, page: 1, limit: 10, country: 'us', language: 'en' });
    samples.push(performance.now() - started);
  }
  await provider.close();
  return percentile(
    samples.sort((a, b) => a - b),
    50,
  );
}

/** One client, one request at a time, every query new: the service's own cost over the provider's. */
async function sequentialP50(url: string, headers: Record<string, string>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < UNIQUE.length; i++) {
    const started = performance.now();
    const response = await fetch(url, { method: 'POST', headers, body: body(UNIQUE[i]) });
    await response.arrayBuffer();
    if (i >= 200) samples.push(performance.now() - started);
  }
  return percentile(
    samples.sort((a, b) => a - b),
    50,
  );
}

let fresh_n = 0;

async function localHttp(
  mode: Mode,
  dir: string,
  rows: Row[],
  providerP50: number,
  standaloneRps?: number,
): Promise<number> {
  const svc = await startService(
    mode,
    { RATE_LIMIT_RPS: '0', LOCAL_INDEX_DIR: dir, LOG_LEVEL: 'warn' },
    { responseCheck: false },
  );
  try {
    const url = `${svc.baseUrl}/v1/search`;
    const headers = { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' };
    const first = await fetch(url, { method: 'POST', headers, body: body(QUERIES[0]) });
    const firstBody = (await first.json()) as { results: unknown[] };
    if (first.status !== 200 || firstBody.results.length !== 10)
      throw new Error(`unexpected search answer: ${first.status}`);
    const requests = QUERIES.map((q) => ({ method: 'POST' as const, path: '/v1/search', headers, body: body(q) }));
    // Repeated queries: instant answers them from the minute-long page cache, as it would in use.
    const run = (connections: number, duration: number) => autocannon({ url, connections, duration, requests });
    await run(10, 2);
    const load = await run(50, HTTP_SECONDS);
    const latency = await run(10, HTTP_SECONDS);
    if (load.non2xx + latency.non2xx > 0) throw new Error(`${mode}: ${load.non2xx + latency.non2xx} non-2xx answers`);
    const rps = load.requests.average;
    rows.push({
      metric: `local ${mode} throughput`,
      value: rps,
      unit: 'req/s',
      ...(standaloneRps === undefined
        ? atLeast(rps, 1000)
        : { target: '>= 60% of standalone', pass: rps >= 0.6 * standaloneRps }),
      note: `50 connections, ${QUERIES.length} repeated queries${standaloneRps ? `, ${Math.round((100 * rps) / standaloneRps)}% of standalone` : ''}`,
    });
    rows.push({
      metric: `local ${mode} p50`,
      value: latency.latency.p50,
      unit: 'ms',
      ...(mode === 'standalone' ? atMost(latency.latency.p50, 10) : {}),
      note: '10 connections',
    });
    rows.push({
      metric: `local ${mode} p99`,
      value: latency.latency.p99,
      unit: 'ms',
      note: `10 connections, ${Math.round(latency.requests.average)} req/s`,
    });
    if (mode === 'standalone') {
      const serviceP50 = await sequentialP50(url, headers);
      const overhead = serviceP50 - providerP50;
      rows.push({
        metric: 'local overhead over in-process provider (p50)',
        value: overhead,
        unit: 'ms',
        ...atMost(overhead, 3),
        note: `1 connection, new queries: service ${serviceP50.toFixed(2)} ms - provider ${providerP50.toFixed(2)} ms (client's fetch included)`,
      });
      const fresh = await autocannon({
        url,
        connections: 50,
        duration: HTTP_SECONDS,
        requests: [
          {
            method: 'POST',
            path: '/v1/search',
            headers,
            setupRequest: (req) => ({ ...req, body: body(`${UNIQUE[fresh_n % UNIQUE.length]} ${fresh_n++}`) }),
          },
        ],
      });
      rows.push({
        metric: 'local standalone throughput, new queries',
        value: fresh.requests.average,
        unit: 'req/s',
        note: '50 connections, every query new (no cache)',
      });
    }
    return rps;
  } finally {
    await svc.stop();
  }
}

async function searxng(rows: Row[]): Promise<void> {
  const stub = await ReplayServer.start({
    delayMs: 100,
    routes: [
      { path: '/search', file: path.join(ROOT, 'test', 'fixtures', 'recorded', 'searxng', 'search-general.json') },
    ],
  });
  const stubSamples: number[] = [];
  for (let i = 0; i < 100; i++) {
    const started = performance.now();
    const response = await fetch(`${stub.url}/search?q=stub+${i}&format=json`);
    await response.arrayBuffer();
    stubSamples.push(performance.now() - started);
  }
  const stubP50 = percentile(
    stubSamples.sort((a, b) => a - b),
    50,
  );
  const svc = await startService(
    'standalone',
    {
      RATE_LIMIT_RPS: '0',
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: stub.url,
      SEARXNG_MAX_CONCURRENT: '64',
      SEARXNG_RPS: '0',
      LOG_LEVEL: 'warn',
    },
    { responseCheck: false },
  );
  try {
    let n = 0;
    const headers = { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' };
    const result = await autocannon({
      url: `${svc.baseUrl}/v1/search`,
      connections: 10,
      duration: HTTP_SECONDS,
      // A new query every request: nothing is answered from the service's page cache.
      requests: [
        {
          method: 'POST',
          path: '/v1/search',
          headers,
          setupRequest: (req) => ({ ...req, body: body(`battery storage ${n++}`) }),
        },
      ],
    });
    if (result.non2xx > 0) throw new Error(`searxng: ${result.non2xx} non-2xx answers`);
    rows.push({
      metric: 'searxng stub p50 (direct)',
      value: stubP50,
      unit: 'ms',
      note: 'replayed answer after 100 ms',
    });
    rows.push({
      metric: 'searxng service p50',
      value: result.latency.p50,
      unit: 'ms',
      target: '<= 1.1x stub',
      pass: result.latency.p50 <= 1.1 * stubP50,
      note: `${(result.latency.p50 / stubP50).toFixed(3)}x the stub, 10 connections, ${Math.round(result.requests.average)} req/s`,
    });
  } finally {
    await svc.stop();
    await stub.close();
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-bench-pages-'));
  writePages(dir);
  const rows: Row[] = [];
  const providerP50 = await inProcessProviderP50(dir);
  rows.push({
    metric: 'local provider in-process p50',
    value: providerP50,
    unit: 'ms',
    note: `${PAGES.toLocaleString('en-US')} pages, limit 10`,
  });
  const standalone = await localHttp('standalone', dir, rows, providerP50);
  await localHttp('cluster', dir, rows, providerP50, standalone);
  await searxng(rows);
  report('search', rows, { pages: PAGES, queries: QUERIES, http_seconds: HTTP_SECONDS, rerun: 'npm run bench:search' });
  fs.rmSync(dir, { recursive: true, force: true });
}

if (require.main === module)
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
