/**
 * `npm run bench:index-breakdown`: where a query's time goes in the local index engine, at each
 * size of the index benchmark (INDEX_BENCH_SIZES, default 100000,1000000), in this process and
 * without HTTP. A diagnostic beside bench:index (which measures the service): it builds each
 * size's index once into the benchmark's folder and keeps it (`keep-<size>`, reused by later runs),
 * then runs the same distinct queries as bench:index, after a warm-up of other queries, and
 * prints per query:
 *  - lists: reading the query's postings (from the cache, or from SQLite and decoded);
 *  - top-k: window pruning over the lists as loaded (k = 30, the pool the ranking draws from),
 *    with the windows it read and the documents it scored;
 *  - search: the whole `LocalIndex.search`, its lists now loaded (top-k again, the priors, the
 *    rows of the page of results and their snippets): what is not top-k is the rest;
 *  - the cache's part: how many of a query's lists were evicted and read again from their kept
 *    window bounds, and how many impacts top-k then computed where it read them;
 *  - how tight the window bounds are: every match of the query scored (outside the timings), the
 *    windows whose bound (the sum of the lists' maxima there) reaches the k-th best score in the
 *    end, against the windows that hold a page scoring that much: what top-k reads beyond the
 *    second is the price of bounds by sums of maxima (and of a threshold that rises as it goes).
 * The postings cache is the service's default (LOCAL_INDEX_CACHE_MB, 384; set it to see what
 * another size changes).
 * Rerun: npm run bench:index-breakdown   (INDEX_BREAKDOWN_QUERIES, default 2000; warm-up 2000)
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalSearchProvider } from '@app/search-engine';
import { LocalIndex } from '../libs/search-engine/src/local-index';
import { type ImpactList, WINDOW_SHIFT } from '../libs/search-engine/src/impact-list';
import type { Retrieval } from '../libs/search-engine/src/query-evaluation';
import { terms } from '../libs/search-engine/src/text-analysis';
import { topK, type TopKStats } from '../libs/search-engine/src/top-k';
import { machine, runMain } from './bench-util';
import { distinctQueries, writeCorpus } from './index-corpus';

const SIZES = (process.env.INDEX_BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const QUERIES = Number(process.env.INDEX_BREAKDOWN_QUERIES ?? 2000);
const WARM = 2000;
const CACHE_BYTES = Number(process.env.LOCAL_INDEX_CACHE_MB ?? 384) * 2 ** 20;
const WORK = path.join(os.tmpdir(), 'wr-index-bench');

async function keptIndex(size: number): Promise<string> {
  const pagesDir = path.join(WORK, `pages-${size}`);
  writeCorpus(pagesDir, size);
  const dataDir = path.join(WORK, `keep-${size}`);
  // The provider builds the index once; later runs find it and check it against the folder (an
  // index of another format is built again).
  process.stderr.write(`[breakdown] ${size} pages: index in ${dataDir} (kept for later runs)…\n`);
  const provider = new LocalSearchProvider({ dataDir, indexDir: pagesDir, watch: false });
  await provider.ready();
  await provider.close();
  const file = path.join(dataDir, 'index', 'local-index.db');
  return file;
}

async function main(): Promise<void> {
  const m = machine();
  console.log(`index breakdown — ${new Date().toISOString()}`);
  console.log(`machine: ${m.cpus} cores (${m.cpu_model}), node ${m.node}; postings cache ${CACHE_BYTES / 2 ** 20} MB`);
  console.log(
    '| pages | lists ms | top-k ms | search ms (lists loaded) | rest ms | lists per query | postings per query | windows read per query | scored per query | lists from kept bounds per query | impacts computed by top-k per query | windows whose bound reaches the final k-th score | windows holding a page of that score |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const queries = distinctQueries(60_000);
  for (const size of SIZES) {
    const index = new LocalIndex({ file: await keptIndex(size), readonly: true, cacheBytes: CACHE_BYTES });
    // The engine's own retrieval (a private field): the bench times its parts one by one.
    const r = (index as unknown as { retrieval: Retrieval }).retrieval;
    const admit = (doc: number) => r.pages.live[doc] === 1;
    for (let i = 0; i < WARM; i++) index.search({ query: queries[queries.length - 1 - i], limit: 10 });
    let listsMs = 0;
    let topMs = 0;
    let searchMs = 0;
    let lists = 0;
    let postings = 0;
    let scored = 0;
    let windows = 0;
    let lazy = 0;
    let computed = 0;
    let bounded = 0;
    let holding = 0;
    const tightness = boundTightness(r.pages.live.length, admit);
    for (let i = 0; i < QUERIES; i++) {
      const query = queries[i];
      let t = performance.now();
      const loaded = [...new Set(terms(query))].flatMap((term) => r.list(term) ?? []);
      listsMs += performance.now() - t;
      const stats: TopKStats = { scored: 0, windows: 0 };
      const computedBefore = index.stats().lazyPostings.computed;
      t = performance.now();
      const top = topK(loaded, 30, admit, stats);
      topMs += performance.now() - t;
      computed += index.stats().lazyPostings.computed - computedBefore;
      if (top.length === 30) {
        const windows = tightness(loaded, top[29].score);
        bounded += windows.bounded;
        holding += windows.holding;
      }
      lazy += loaded.filter((list) => list.impactOf !== undefined).length;
      t = performance.now();
      index.search({ query, limit: 10 });
      searchMs += performance.now() - t;
      lists += loaded.length;
      postings += loaded.reduce((sum, list) => sum + list.docs.length, 0);
      scored += stats.scored;
      windows += stats.windows;
    }
    index.close();
    const per = (x: number, digits = 2) => (x / QUERIES).toFixed(digits);
    console.log(
      `| ${size.toLocaleString('en-US')} | ${per(listsMs)} | ${per(topMs)} | ${per(searchMs)} | ${per(searchMs - topMs)} | ${per(lists)} | ${per(postings, 0)} | ${per(windows, 0)} | ${per(scored, 0)} | ${per(lazy)} | ${per(computed, 0)} | ${per(bounded, 0)} | ${per(holding, 0)} |`,
    );
  }
  console.log(`${QUERIES} distinct queries per size after ${WARM} others; rerun: npm run bench:index-breakdown`);
}

/**
 * For a query's lists and the k-th best score top-k found: the windows whose bound (each list's
 * largest impact there, summed) reaches it, and the windows holding an admitted page that scores
 * it. Every match is scored, into arrays sized once for the collection's ids.
 */
function boundTightness(ids: number, admit: (doc: number) => boolean) {
  const sums = new Float64Array(ids);
  const windows = (ids >>> WINDOW_SHIFT) + 1;
  const bound = new Float64Array(windows);
  const listMax = new Float64Array(windows);
  const best = new Float64Array(windows);
  return (lists: ImpactList[], kth: number): { bounded: number; holding: number } => {
    const floor = kth - Math.abs(kth) * 1e-12;
    const touched: number[] = [];
    const touchedWindows = new Set<number>();
    for (const list of lists) {
      const worth = list.step * (list.weight ?? 1);
      const listWindows: number[] = [];
      for (let p = 0; p < list.docs.length; p++) {
        const doc = list.docs[p];
        const units = list.impactOf ? list.impactOf(p) / list.step : list.impacts[p];
        if (sums[doc] === 0) touched.push(doc);
        sums[doc] += units * worth;
        const w = doc >>> WINDOW_SHIFT;
        if (listMax[w] === 0) listWindows.push(w);
        if (units > listMax[w]) listMax[w] = units;
      }
      for (const w of listWindows) {
        bound[w] += listMax[w] * worth;
        listMax[w] = 0;
        touchedWindows.add(w);
      }
    }
    for (const doc of touched) {
      if (admit(doc) && sums[doc] > best[doc >>> WINDOW_SHIFT]) best[doc >>> WINDOW_SHIFT] = sums[doc];
      sums[doc] = 0;
    }
    let bounded = 0;
    let holding = 0;
    for (const w of touchedWindows) {
      if (bound[w] >= floor) bounded++;
      if (best[w] >= floor) holding++;
      bound[w] = 0;
      best[w] = 0;
    }
    return { bounded, holding };
  };
}

runMain(main);
