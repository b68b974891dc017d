import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Shared by the benchmarks: percentiles, the machine line, and the table + JSON output. */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

export const machine = () => ({
  cpus: os.cpus().length,
  cpu_model: os.cpus()[0]?.model ?? 'unknown',
  memory_gib: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
});

export interface Row {
  metric: string;
  value: number;
  unit: string;
  target?: string;
  pass?: boolean;
  note?: string;
}

export function report(name: string, rows: Row[], extra: Record<string, unknown> = {}): void {
  const m = machine();
  const width = Math.max(...rows.map((r) => r.metric.length), 10);
  const lines = [
    `${name} — ${new Date().toISOString()}`,
    `machine: ${m.cpus} cores (${m.cpu_model}), ${m.memory_gib} GiB, node ${m.node}, ${m.platform}`,
    '',
    `${'metric'.padEnd(width)}  ${'value'.padStart(12)}  ${'unit'.padEnd(8)}  ${'target'.padEnd(14)}  ok`,
    `${'-'.repeat(width)}  ${'-'.repeat(12)}  ${'-'.repeat(8)}  ${'-'.repeat(14)}  --`,
    ...rows.map(
      (r) =>
        `${r.metric.padEnd(width)}  ${formatValue(r.value).padStart(12)}  ${r.unit.padEnd(8)}  ${(r.target ?? '').padEnd(14)}  ${r.pass === undefined ? '' : r.pass ? 'yes' : 'NO'}${r.note ? `  (${r.note})` : ''}`,
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const dir = path.resolve(__dirname, '..', '..', 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ name, at: new Date().toISOString(), machine: m, rows, ...extra }, null, 2) + '\n');
  process.stdout.write(`\nwritten: ${path.relative(process.cwd(), file)}\n`);
}

const formatValue = (v: number) => (Number.isInteger(v) || Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2));

export const atLeast = (value: number, min: number) => ({ target: `>= ${min.toLocaleString('en-US')}`, pass: value >= min });
export const atMost = (value: number, max: number) => ({ target: `<= ${max.toLocaleString('en-US')}`, pass: value <= max });
