/**
 * `npm run bench:findall`: FindAll runs against the startup registry fixture (44 companies over 4
 * directory pages, a profile page each, companies that match some conditions but not all), on the
 * compiled standalone service with a SearXNG stand-in that finds the registry. For each query:
 * recall and precision of the entities against the gold set computed from the registry's own
 * table, and the wall time of POST /v1/findall until its 200 (p50 of 5 runs). Then the same query
 * with `generator: "preview"` (5 runs): its wall time against the full run's (target: under a
 * fifth), the share of its matches that the full run returns too (target: all), and what it was
 * charged (query and match SKUs only). Written to bench/results/findall.json.
 * Rerun: npm run bench:findall
 */
import { REGISTRY, startRegistryService } from '../test/support/registry-web';
import { atLeast, atMost, percentile, report, type Row } from './bench-util';

const QUERIES: { query: string; gold: string[] }[] = [
  { query: 'companies headquartered in Berlin', gold: REGISTRY.filter((c) => c.city === 'Berlin').map((c) => c.name) },
  {
    query: 'robotics companies founded after 2015',
    gold: REGISTRY.filter((c) => c.industry === 'robotics' && c.founded > 2015).map((c) => c.name),
  },
  {
    query: 'energy storage companies founded before 2016',
    gold: REGISTRY.filter((c) => c.industry === 'energy storage' && c.founded < 2016).map((c) => c.name),
  },
  {
    query: 'companies with more than 200 employees',
    gold: REGISTRY.filter((c) => c.employees > 200).map((c) => c.name),
  },
  {
    query: 'software companies based in Berlin',
    gold: REGISTRY.filter((c) => c.industry === 'software' && c.city === 'Berlin').map((c) => c.name),
  },
];

/** How long each page of the registry takes to answer in the preview's timing. */
const PAGE_DELAY_MS = 100;

async function main(): Promise<void> {
  const registry = await startRegistryService('standalone', { env: { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' } });
  const svc = registry.svc;
  const rows: Row[] = [];
  const misses: string[] = [];
  try {
    type View = { entities: { name: string }[]; usage_items: { sku: string; quantity: number }[] };
    /** Five runs of one body: their wall times, sorted, and the last run's view. */
    const timed = async (body: Record<string, unknown>) => {
      const times: number[] = [];
      let view: View = { entities: [], usage_items: [] };
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const response = await fetch(`${svc.baseUrl}/v1/findall`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ limit: 100, wait_seconds: 120, ...body }),
        });
        view = (await response.json()) as View;
        if (response.status !== 200)
          throw new Error(`${body.query}: ${response.status} ${JSON.stringify(view).slice(0, 200)}`);
        times.push(performance.now() - started);
      }
      return { times: times.sort((a, b) => a - b), view };
    };
    for (const { query, gold } of QUERIES) {
      const { times, view } = await timed({ query });
      const found = view.entities.map((e) => e.name);
      const right = found.filter((name) => gold.includes(name)).length;
      const recall = gold.length ? right / gold.length : 1;
      const precision = found.length ? right / found.length : 1;
      for (const name of gold.filter((n) => !found.includes(n))) misses.push(`${query}: missed ${name}`);
      for (const name of found.filter((n) => !gold.includes(n))) misses.push(`${query}: wrongly included ${name}`);
      rows.push({
        metric: `"${query}": recall`,
        value: recall,
        unit: 'share',
        ...atLeast(recall, 1),
        note: `${right}/${gold.length} gold entities`,
      });
      rows.push({
        metric: `"${query}": precision`,
        value: precision,
        unit: 'share',
        ...atLeast(precision, 1),
        note: `${right}/${found.length} entities returned`,
      });
      rows.push({
        metric: `"${query}": wall time p50`,
        value: percentile(times, 50),
        unit: 'ms',
        note: '5 runs, POST /v1/findall to its 200',
      });
      const preview = await timed({ query, generator: 'preview' });
      const previewed = preview.view.entities.map((e) => e.name);
      const among = previewed.length ? previewed.filter((name) => found.includes(name)).length / previewed.length : 1;
      rows.push({
        metric: `"${query}": preview matches the full run returns too`,
        value: among,
        unit: 'share',
        ...atLeast(among, 1),
        note: `${previewed.length} previewed; charged ${preview.view.usage_items.map((i) => `${i.sku} ${i.quantity}`).join(', ')}`,
      });
    }
  } finally {
    await registry.stop();
  }
  // The time a preview saves is in the pages it does not read: measured where each page takes
  // PAGE_DELAY_MS to answer, as a real site's would, each run on a service of its own so that no
  // page is in its cache (the registry above answers at once and its pages are cached after the
  // first run, so a full run there is mostly the fixed cost of a run). Each service first extracts
  // a page of the site that is not the registry's, as a running service would have.
  const cold = async (query: string, body: Record<string, unknown>) => {
    const slow = await startRegistryService('standalone', {
      delayMs: PAGE_DELAY_MS,
      env: { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' },
    });
    try {
      // As a service that has run before: its code loaded and its extraction workers started (the site's
      // about page read, which no run reads), the site's robots.txt read; no registry page cached.
      const origin = new URL(slow.web.urls()[0]!).origin;
      const auth = { Authorization: `Bearer ${slow.svc.demoKey}`, 'Content-Type': 'application/json' };
      await fetch(`${slow.svc.baseUrl}/v1/extract`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ urls: [`${origin}/about`] }),
      }).then((r) => r.text());
      const started = performance.now();
      const response = await fetch(`${slow.svc.baseUrl}/v1/findall`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${slow.svc.demoKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, limit: 100, wait_seconds: 120, ...body }),
      });
      if (response.status !== 200) throw new Error(`${query}: ${response.status}`);
      await response.json();
      return performance.now() - started;
    } finally {
      await slow.stop();
    }
  };
  for (const { query } of QUERIES) {
    const full = await cold(query, {});
    const quick = await cold(query, { generator: 'preview' });
    rows.push({
      metric: `"${query}": preview wall time / full run's, cold, pages answering in ${PAGE_DELAY_MS} ms`,
      value: quick / full,
      unit: 'ratio',
      ...atMost(quick / full, 0.2),
      note: `one run each on a fresh service: ${quick.toFixed(0)} ms against ${full.toFixed(0)} ms`,
    });
  }
  report('findall', rows, {
    rerun: 'npm run bench:findall',
    fixture: 'test/support/registry-web.ts (44 companies, 4 directory pages)',
    misses,
  });
  if (misses.length) process.stdout.write(`\n${misses.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
