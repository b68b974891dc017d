/**
 * `npm run bench:findall`: FindAll runs against the startup registry fixture (44 companies over 4
 * directory pages, a profile page each, companies that match some conditions but not all), on the
 * compiled standalone service with a SearXNG stand-in that finds the registry. For each query:
 * recall and precision of the entities against the gold set computed from the registry's own
 * table, and the wall time of POST /v1/findall until its 200 (p50 of 5 runs). Written to
 * bench/results/findall.json.
 * Rerun: npm run bench:findall
 */
import { REGISTRY, startRegistryService } from '../test/support/registry-web';
import { atLeast, percentile, report, type Row } from './bench-util';

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

async function main(): Promise<void> {
  const registry = await startRegistryService('standalone', { env: { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' } });
  const svc = registry.svc;
  const rows: Row[] = [];
  const misses: string[] = [];
  try {
    for (const { query, gold } of QUERIES) {
      const times: number[] = [];
      let found: string[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const response = await fetch(`${svc.baseUrl}/v1/findall`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ query, limit: 100, wait_seconds: 120 }),
        });
        const view = (await response.json()) as { entities: { name: string }[] };
        if (response.status !== 200)
          throw new Error(`${query}: ${response.status} ${JSON.stringify(view).slice(0, 200)}`);
        times.push(performance.now() - started);
        found = view.entities.map((e) => e.name);
      }
      times.sort((a, b) => a - b);
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
    }
  } finally {
    await registry.stop();
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
