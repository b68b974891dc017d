import { execFileSync, execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractDocument } from '@app/extraction';

/** Shared by the benchmarks: percentiles, the machine line, and the table + JSON output. */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

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
  fs.writeFileSync(
    file,
    JSON.stringify({ name, at: new Date().toISOString(), machine: m, rows, ...extra }, null, 2) + '\n',
  );
  process.stdout.write(`\nwritten: ${path.relative(process.cwd(), file)}\n`);
}

const formatValue = (v: number) =>
  Number.isInteger(v) || Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2);

export const atLeast = (value: number, min: number) => ({
  target: `>= ${min.toLocaleString('en-US')}`,
  pass: value >= min,
});
export const atMost = (value: number, max: number) => ({
  target: `<= ${max.toLocaleString('en-US')}`,
  pass: value <= max,
});

/** The repository root (from bench/ or dist/bench/). */
export const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    // At the file system's root, dirname returns its argument: a build copied out of the
    // repository would otherwise loop here for ever.
    if (path.dirname(dir) === dir) throw new Error(`bench: no package.json above ${__dirname}`);
    dir = path.dirname(dir);
  }
  return dir;
})();

/** A page the repository ships, as its title and sentences: material for generated pages and queries. */
export interface SourcePage {
  title: string;
  sentences: string[];
}

/** The titles and sentences of every page under `dirs` (relative to the repository root). */
export function sourcePages(dirs: string[]): SourcePage[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (
        /\.(html|md)$/.test(entry.name) &&
        !entry.name.startsWith('_') &&
        entry.name !== 'README.md' &&
        entry.name !== 'SPEC.md'
      )
        files.push(full);
    }
  };
  for (const dir of dirs) walk(path.join(ROOT, dir));
  const out: SourcePage[] = [];
  for (const file of files) {
    const body = fs.readFileSync(file, 'utf8');
    const doc = extractDocument(body, {
      url: 'https://bench.invalid/',
      contentType: file.endsWith('.md') ? 'text/markdown' : 'text/html',
    });
    const sentences = doc.text
      .split(/(?<=[.!?])\s+/)
      .filter((x) => x.length > 30 && x.length < 500 && !x.includes('{{'));
    if (sentences.length >= 3)
      out.push({ title: (doc.title ?? sentences[0]).replace(/\{\{[^}]*\}\}/g, '').slice(0, 90), sentences });
  }
  return out;
}

/**
 * Another commit's build, for a benchmark that compares it with this checkout: the commit is
 * written out with `git archive` into a temp folder and compiled there once (node_modules linked
 * from this checkout). Returns its dist folder and full commit id.
 */
export function baselineDist(ref: string, tag: string): { dist: string; sha: string } {
  const sha = execFileSync('git', ['rev-parse', `${ref}^{commit}`], { cwd: ROOT })
    .toString()
    .trim();
  const dir = path.join(os.tmpdir(), `wr-baseline-${sha.slice(0, 12)}`);
  const dist = path.join(dir, 'dist');
  if (fs.existsSync(path.join(dir, '.built'))) return { dist, sha };
  process.stderr.write(`[${tag}] building the baseline ${sha.slice(0, 12)} in ${dir}…\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execSync(`git archive ${sha} | tar -x -C "${dir}"`, { cwd: ROOT });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
  execFileSync(bin('tsc'), ['-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  execFileSync(bin('tsc-alias'), ['-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  fs.writeFileSync(path.join(dir, '.built'), `${sha}\n`);
  return { dist, sha };
}

/**
 * Real pages are topical and each has its own names, places and numbers. A generated page takes
 * most sentences of one source page, shuffled, plus a couple from another, with its own proper
 * names and numbers: common words keep their spread, names become rare, as on the web. Returns
 * the page's HTML (dated, with a canonical link on one of `hosts` made-up hosts).
 */
export function generatedPage(
  i: number,
  source: SourcePage,
  other: SourcePage,
  random: () => number,
  names: string[],
  hosts: number,
): string {
  const own = source.sentences.filter(() => random() < 0.8);
  const extra = other.sentences.filter(() => random() < 0.15).slice(0, 2);
  const body = [...own, ...extra]
    .sort(() => random() - 0.5)
    .map((x) =>
      x
        .replace(/\b[A-Z][a-z]{3,}\b/g, (word, offset: number) =>
          offset === 0 ? word : names[Math.floor(random() * names.length)],
        )
        .replace(/\b\d[\d,.]*\b/g, () => String(Math.floor(random() * 10_000))),
    );
  const title = `${source.title} — ${names[0]}`;
  const day = String(1 + (i % 28)).padStart(2, '0');
  const month = String(1 + (i % 12)).padStart(2, '0');
  return (
    `<!doctype html><html lang="en"><head><title>${title}</title><link rel="canonical" href="https://site${i % hosts}.bench.example/page-${i}">` +
    `<meta property="article:published_time" content="2025-${month}-${day}T08:00:00Z"></head><body><nav>Home · Topics · About</nav>` +
    `<main><h1>${title}</h1>${body.map((x) => `<p>${x}</p>`).join('')}</main><footer>© Bench</footer></body></html>`
  );
}

/** A bench's entry point: exits 0 when `main` finishes, prints the error and exits 1 when it throws. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
