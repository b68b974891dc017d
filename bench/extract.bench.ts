/**
 * `npm run bench:extract`: main-content extraction quality and speed, ours against the peer
 * (@mozilla/readability on a jsdom document, then turndown for markdown), on the hand-marked
 * pages of bench/fixtures/extract (manifest.json lists them with their URL and template).
 *
 * Quality: each extractor's plain text against the page's `.gold.txt`, as a bag of lower-cased
 * word tokens with multiplicity (CleanEval / article-extraction-benchmark style): precision,
 * recall and F1 per page, then averaged over pages. Speed: each extractor's full path over all
 * pages, repeatedly for at least BENCH_SECONDS (default 3): ours = parse + extraction + markdown,
 * text and HTML; the peer = jsdom parse + Readability + turndown. Beside HTML: PDF pages per
 * second and rendered (headless Chromium) pages per second (see documents-speed.ts). Table on
 * stdout, JSON in bench/results/extract.json.
 *
 * Rerun: npm run bench:extract   (or: node scripts/ensure-built.js && node dist/bench/extract.bench.js)
 * Options: BENCH_SECONDS=5, --dump <dir> writes each extractor's text per page for inspection.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import TurndownService from 'turndown';
import { extractDocument } from '@app/extraction';
import { machine, runMain } from './bench-util';
import { type DocumentSpeed, pdfSpeed, renderSpeed } from './documents-speed';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

interface Page {
  file: string;
  url: string;
  kind: string;
  html: string;
  gold: string;
}

interface Extractor {
  name: string;
  run(html: string, url: string): { text: string; markdown: string };
}

/** Fixtures live in the source tree: find it from wherever this runs (dist/bench or bench). */
function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'bench', 'fixtures', 'extract')))
      return dir;
    if (path.dirname(dir) === dir)
      throw new Error('repository root (package.json with bench/fixtures/extract) not found');
  }
}

function loadPages(root: string): Page[] {
  const dir = path.join(root, 'bench', 'fixtures', 'extract');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Array<
    Omit<Page, 'html' | 'gold'>
  >;
  return manifest.map((m) => ({
    ...m,
    html: fs.readFileSync(path.join(dir, m.file), 'utf8'),
    gold: fs.readFileSync(path.join(dir, m.file.replace(/\.html$/, '.gold.txt')), 'utf8'),
  }));
}

const ours: Extractor = {
  name: 'ours (node-html-parser)',
  run(html, url) {
    const d = extractDocument(html, { url, contentType: 'text/html' });
    return { text: d.text, markdown: d.markdown };
  },
};

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
const quiet = new VirtualConsole(); // jsdom reports CSS it cannot parse; not the benchmark's business
const peer: Extractor = {
  name: 'readability + jsdom + turndown',
  run(html, url) {
    const dom = new JSDOM(html, { url, virtualConsole: quiet });
    const article = new Readability(dom.window.document).parse();
    const markdown = article?.content ? turndown.turndown(article.content) : '';
    const text = article?.textContent ?? '';
    dom.window.close();
    return { text, markdown };
  },
};

// ---- scoring --------------------------------------------------------------------------------

const tokens = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function bag(words: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

export function score(predicted: string, gold: string): { precision: number; recall: number; f1: number } {
  const p = bag(tokens(predicted));
  const g = bag(tokens(gold));
  let overlap = 0;
  let pn = 0;
  let gn = 0;
  for (const n of p.values()) pn += n;
  for (const [w, n] of g) {
    gn += n;
    overlap += Math.min(n, p.get(w) ?? 0);
  }
  const precision = pn ? overlap / pn : 0;
  const recall = gn ? overlap / gn : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

function throughput(ex: Extractor, pages: Page[]): { pagesPerSecond: number; msPerPage: number; pages: number } {
  for (const p of pages) ex.run(p.html, p.url); // warm up (JIT, lazy module init)
  let done = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < SECONDS * 1000) {
    for (const p of pages) ex.run(p.html, p.url);
    done += pages.length;
    elapsed = performance.now() - started;
  }
  return { pagesPerSecond: done / (elapsed / 1000), msPerPage: elapsed / done, pages: done };
}

// ---- main -----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const root = repoRoot();
  const pages = loadPages(root);
  const dumpAt = process.argv.indexOf('--dump');
  const dumpDir = dumpAt > 0 ? process.argv[dumpAt + 1] : undefined;
  if (dumpDir) fs.mkdirSync(dumpDir, { recursive: true });

  const extractors = [ours, peer];
  const perPage = pages.map((p) => {
    const row: Record<string, unknown> = {
      file: p.file,
      kind: p.kind,
      bytes: Buffer.byteLength(p.html),
      gold_tokens: tokens(p.gold).length,
    };
    for (const ex of extractors) {
      const out = ex.run(p.html, p.url);
      row[ex.name] = {
        ...round(score(out.text, p.gold)),
        tokens: tokens(out.text).length,
        markdown_chars: out.markdown.length,
      };
      if (dumpDir) fs.writeFileSync(path.join(dumpDir, `${p.file}.${ex === ours ? 'ours' : 'peer'}.txt`), out.text);
    }
    return row;
  });

  const summary = extractors.map((ex) => {
    const scores = perPage.map((r) => r[ex.name] as { precision: number; recall: number; f1: number });
    const mean = (k: 'precision' | 'recall' | 'f1') => scores.reduce((a, s) => a + s[k], 0) / scores.length;
    return {
      extractor: ex.name,
      ...throughput(ex, pages),
      precision: mean('precision'),
      recall: mean('recall'),
      f1: mean('f1'),
    };
  });

  const documents: DocumentSpeed[] = [await pdfSpeed(SECONDS), await renderSpeed(SECONDS)];

  const m = machine();
  const lines: string[] = [];
  lines.push(
    `extract — ${new Date().toISOString()} — ${pages.length} pages, ${(pages.reduce((a, p) => a + p.html.length, 0) / 1024).toFixed(0)} KiB of HTML`,
  );
  lines.push(`machine: ${m.cpus} cores (${m.cpu_model}), ${m.memory_gib} GiB, node ${m.node}, ${m.platform}`);
  lines.push(
    `rerun: npm run bench:extract   (BENCH_SECONDS=${SECONDS}; speed = full path incl. markdown, single thread)`,
  );
  lines.push('');
  const head = ['extractor', 'pages/s', 'ms/page', 'precision', 'recall', 'F1'];
  const rows = summary.map((s) => [
    s.extractor,
    s.pagesPerSecond.toFixed(1),
    s.msPerPage.toFixed(2),
    s.precision.toFixed(3),
    s.recall.toFixed(3),
    s.f1.toFixed(3),
  ]);
  lines.push(...table(head, rows));
  lines.push('');
  lines.push('other documents (speed only):');
  const docRows = documents.map((d) => [
    d.kind,
    d.pagesPerSecond === null ? 'n/a' : d.pagesPerSecond.toFixed(1),
    d.msPerPage === null ? 'n/a' : d.msPerPage.toFixed(2),
    d.note,
  ]);
  lines.push(...table(['document', 'pages/s', 'ms/page', 'what'], docRows));
  lines.push('');
  lines.push('per page (F1; P/R) — ours vs peer:');
  const pageRows = perPage.map((r) => {
    const o = r[ours.name] as ReturnType<typeof score>;
    const q = r[peer.name] as ReturnType<typeof score>;
    const flag = o.f1 + 0.005 < q.f1 ? 'LOSS' : o.f1 > q.f1 + 0.005 ? 'win' : 'tie';
    return [
      String(r.file),
      o.f1.toFixed(3),
      `${o.precision.toFixed(2)}/${o.recall.toFixed(2)}`,
      q.f1.toFixed(3),
      `${q.precision.toFixed(2)}/${q.recall.toFixed(2)}`,
      flag,
    ];
  });
  lines.push(...table(['page', 'ours F1', 'ours P/R', 'peer F1', 'peer P/R', ''], pageRows));
  const [o, q] = summary;
  lines.push('');
  lines.push(
    `targets: F1 >= peer: ${o.f1 >= q.f1 ? 'yes' : 'NO'} (${o.f1.toFixed(3)} vs ${q.f1.toFixed(3)}); pages/s >= peer: ${o.pagesPerSecond >= q.pagesPerSecond ? 'yes' : 'NO'} (${(o.pagesPerSecond / q.pagesPerSecond).toFixed(1)}x)`,
  );
  process.stdout.write(lines.join('\n') + '\n');

  const dir = path.join(root, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'extract.json');
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        name: 'extract',
        at: new Date().toISOString(),
        machine: m,
        seconds_per_extractor: SECONDS,
        pages: pages.length,
        summary: summary.map(roundAll),
        documents: documents.map((d) => roundAll({ ...d })),
        per_page: perPage,
      },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(`\nwritten: ${path.relative(process.cwd(), file)}\n`);
}

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)];
}

const round = (s: { precision: number; recall: number; f1: number }) => ({
  precision: +s.precision.toFixed(4),
  recall: +s.recall.toFixed(4),
  f1: +s.f1.toFixed(4),
});
const roundAll = (o: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k, typeof v === 'number' && !Number.isInteger(v) ? +v.toFixed(4) : v]),
  );

if (require.main === module) runMain(main);
