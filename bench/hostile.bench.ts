/**
 * `npm run bench:hostile`: how fast the service stays while it reads pages built to hurt an
 * extractor (test/support/pathological-pages.ts, plus random bodies of the same shapes up to 5 MB).
 * The tests check that each such page is answered and the service keeps answering; the speed
 * targets are measured here, where nothing else shares the cores:
 *  - extraction threads, in a process of their own (test/support/extraction-probe.ts, deadline
 *    1.2 s): the slowest page (target <= 2 s) and the longest single stretch the event loop was
 *    held during one page (a 10 ms timer's worst lateness; target <= 100 ms);
 *  - the standalone service with its default settings, each page read through `POST /v1/extract`
 *    from a loopback site while `/healthz` is asked every 100 ms: the slowest extract answer
 *    (target <= 15 s) and the slowest health answer (target <= 1.5 s).
 * Rerun: npm run bench:hostile   (or: node scripts/ensure-built.js && node dist/bench/hostile.bench.js)
 * Options: BENCH_RANDOM_PAGES=30 (random bodies for the threads), BENCH_SEED=7.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomHostileBodies, runExtractionProbe } from '../test/support/extraction-probe-runner';
import { pathologicalPages } from '../test/support/pathological-pages';
import { bearer, startService } from '../test/support/service-process';
import { atMost, report, type Row, runMain } from './bench-util';

const RANDOM_PAGES = Number(process.env.BENCH_RANDOM_PAGES ?? 30);
const SEED = Number(process.env.BENCH_SEED ?? 7);

async function threads(rows: Row[]): Promise<void> {
  const random = randomHostileBodies(RANDOM_PAGES, 5 * 1024 * 1024, SEED);
  const results = await runExtractionProbe({ timeoutMs: 1_200, random });
  const slowest = results.reduce((a, b) => (b.ms > a.ms ? b : a));
  const held = results.reduce((a, b) => (b.heldMs > a.heldMs ? b : a));
  rows.push(
    { metric: 'threads: slowest page', value: slowest.ms, unit: 'ms', ...atMost(slowest.ms, 2_000), note: `${results.length} pages, deadline 1.2 s; ${slowest.name.slice(0, 60)}` },
    { metric: 'threads: event loop held at once, worst page', value: held.heldMs, unit: 'ms', ...atMost(held.heldMs, 100), note: `${held.name.slice(0, 60)}; busy ${Math.round(held.busyMs)} ms in all` },
  );
}

async function service(rows: Row[]): Promise<void> {
  const pages = pathologicalPages();
  const site = http.createServer((request, response) => {
    const page = pages[Number(new URL(request.url ?? '/', 'http://x').pathname.slice(1))];
    if (!page) return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': page.contentType }).end(page.body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const svc = await startService('standalone', { FETCH_ALLOW_HOSTS: new URL(origin).host, LOG_LEVEL: 'warn' });
  let worstExtract = { ms: 0, name: '' };
  let worstHealth = { ms: 0, name: '' };
  let failures = 0;
  try {
    for (const [index, page] of pages.entries()) {
      let running = true;
      const health = (async () => {
        while (running) {
          const started = performance.now();
          try {
            const response = await fetch(`${svc.baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) });
            if (response.status !== 200) failures++;
          } catch {
            failures++;
          }
          const ms = performance.now() - started;
          if (ms > worstHealth.ms) worstHealth = { ms, name: page.name };
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const started = performance.now();
      const response = await fetch(`${svc.baseUrl}/v1/extract`, {
        method: 'POST',
        headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify({ urls: [`${origin}/${index}`], format: 'text', full_content: true }),
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      const ms = performance.now() - started;
      if (ms > worstExtract.ms) worstExtract = { ms, name: page.name };
      running = false;
      await health;
    }
  } finally {
    await svc.stop();
    await new Promise((resolve) => site.close(resolve));
  }
  rows.push(
    { metric: 'service: slowest /v1/extract of one hostile page', value: worstExtract.ms, unit: 'ms', ...atMost(worstExtract.ms, 15_000), note: `${pages.length} pages, default deadline; ${worstExtract.name}` },
    { metric: 'service: slowest /healthz meanwhile', value: worstHealth.ms, unit: 'ms', ...atMost(worstHealth.ms, 1_500), note: `during ${worstHealth.name}` },
    { metric: 'service: /healthz failures meanwhile', value: failures, unit: 'count', ...atMost(failures, 0), note: 'not 200, or no answer within 5 s' },
  );
}

runMain(async () => {
  const rows: Row[] = [];
  await threads(rows);
  await service(rows);
  report('hostile', rows);
});
