/**
 * `npm run bench:cranfield`: the local index's ranking on the Cranfield collection (1,400
 * aeronautics abstracts, 225 queries, relevance judged by people: bench/fixtures/cranfield, see
 * its SOURCE.md), measured as nDCG@10, P@10 and recall@10 over the queries with a relevant
 * document, beside SQLite FTS5's BM25 (porter stemming) over the same documents as a peer.
 *
 * Each abstract is a page (its title and text) of an index in memory; each query is searched as
 * written (limit 10). Relevance is binary, as in the collection's TREC form: a judgment above 0
 * is relevant. The queries are numbered 1 to 225 in the order of the query file, as the judgments
 * number them (the file's own numbers skip).
 *
 * CRANFIELD_BASELINE=<commit> measures that commit's engine too, beside this checkout (built once
 * into a temporary folder), so a change to ranking is compared with what came before it.
 * Rerun: npm run bench:cranfield   (writes bench/results/cranfield.json)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'node-html-parser';
import { baselineDist, report, ROOT, type Row, runMain } from './bench-util';

const FIXTURE = path.join(ROOT, 'bench', 'fixtures', 'cranfield');
const K = 10;

interface Abstract {
  docno: string;
  title: string;
  text: string;
}

/** The abstracts, queries (in file order) and judgments of the collection. */
function collection(): { docs: Abstract[]; queries: string[]; relevant: Map<number, Set<string>> } {
  const clean = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const docsRoot = parse(fs.readFileSync(path.join(FIXTURE, 'cran.all.1400.xml'), 'utf8'));
  const docs = docsRoot.querySelectorAll('doc').map((d) => ({
    docno: clean(d.querySelector('docno')?.text),
    title: clean(d.querySelector('title')?.text),
    text: clean(d.querySelector('text')?.text),
  }));
  const queryRoot = parse(fs.readFileSync(path.join(FIXTURE, 'cran.qry.xml'), 'utf8'));
  const queries = queryRoot.querySelectorAll('top').map((t) => clean(t.querySelector('title')?.text));
  const relevant = new Map<number, Set<string>>();
  for (const line of fs.readFileSync(path.join(FIXTURE, 'cranqrel.trec.txt'), 'utf8').split('\n')) {
    const [topic, , docno, judged] = line.trim().split(/\s+/);
    if (!topic || !(Number(judged) > 0)) continue;
    const set = relevant.get(Number(topic)) ?? new Set<string>();
    set.add(docno);
    relevant.set(Number(topic), set);
  }
  if (docs.length !== 1400 || queries.length !== 225 || docs.some((d) => !d.docno))
    throw new Error(`the fixture is not whole: ${docs.length} abstracts, ${queries.length} queries`);
  return { docs, queries, relevant };
}

interface Scores {
  ndcg: number;
  precision: number;
  recall: number;
  queries: number;
}

/** Mean nDCG@K, P@K and recall@K over the queries with a relevant document. */
function score(ranked: string[][], relevant: Map<number, Set<string>>): Scores {
  let ndcg = 0;
  let precision = 0;
  let recall = 0;
  let queries = 0;
  ranked.forEach((docnos, i) => {
    const wanted = relevant.get(i + 1);
    if (!wanted || wanted.size === 0) return;
    queries++;
    let dcg = 0;
    let hits = 0;
    docnos.slice(0, K).forEach((docno, rank) => {
      if (!wanted.has(docno)) return;
      dcg += 1 / Math.log2(rank + 2);
      hits++;
    });
    let ideal = 0;
    for (let rank = 0; rank < Math.min(K, wanted.size); rank++) ideal += 1 / Math.log2(rank + 2);
    ndcg += dcg / ideal;
    precision += hits / K;
    recall += hits / wanted.size;
  });
  return { ndcg: ndcg / queries, precision: precision / queries, recall: recall / queries, queries };
}

const urlOf = (docno: string) => `https://cranfield.example/doc/${docno}`;

/** The local index of a build (its compiled dist): every abstract a page, each query searched as written. */
function engineRuns(dist: string, docs: Abstract[], queries: string[]): string[][] {
  const { LocalIndex } = require(path.join(dist, 'libs', 'search-engine', 'src', 'local-index')) as {
    LocalIndex: new (options: { now?: () => Date }) => {
      apply(pages: unknown[], removals: string[]): unknown;
      search(query: { query: string; limit: number }): { hits: Array<{ url: string }> };
      close(): void;
    };
  };
  const index = new LocalIndex({ now: () => new Date('2026-01-01T00:00:00Z') });
  index.apply(
    docs.map((d) => ({
      url: urlOf(d.docno),
      title: d.title,
      text: d.text,
      description: null,
      date: null,
      category: null,
      language: 'en',
      domain: 'cranfield.example',
      source: 'cranfield',
    })),
    [],
  );
  const runs = queries.map((query) =>
    index.search({ query, limit: K }).hits.map((hit) => hit.url.slice(urlOf('').length)),
  );
  index.close();
  return runs;
}

/** SQLite FTS5's BM25 with porter stemming over the same abstracts, each query's words ORed. */
function fts5Runs(docs: Abstract[], queries: string[]): string[][] {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE abstracts USING fts5(docno UNINDEXED, title, text, tokenize='porter')");
  const insert = db.prepare('INSERT INTO abstracts (docno, title, text) VALUES (?, ?, ?)');
  db.transaction(() => docs.forEach((d) => insert.run(d.docno, d.title, d.text)))();
  const search = db.prepare('SELECT docno FROM abstracts WHERE abstracts MATCH ? ORDER BY bm25(abstracts) LIMIT ?');
  const runs = queries.map((query) => {
    const words = [...new Set(query.toLowerCase().match(/[a-z0-9]+/g) ?? [])];
    return words.length === 0
      ? []
      : (search.all(words.map((w) => `"${w}"`).join(' OR '), K) as Array<{ docno: string }>).map((r) => r.docno);
  });
  db.close();
  return runs;
}

async function main(): Promise<void> {
  const { docs, queries, relevant } = collection();
  const systems: Array<{ label: string; runs: string[][] }> = [];
  const baseline = process.env.CRANFIELD_BASELINE;
  if (baseline) {
    const { dist, sha } = baselineDist(baseline, 'cranfield');
    systems.push({ label: `local index before (${sha.slice(0, 7)})`, runs: engineRuns(dist, docs, queries) });
  }
  systems.push({ label: 'local index', runs: engineRuns(path.join(ROOT, 'dist'), docs, queries) });
  systems.push({ label: 'SQLite FTS5 (peer)', runs: fts5Runs(docs, queries) });
  const rows: Row[] = [];
  const figures: Record<string, Scores> = {};
  for (const { label, runs } of systems) {
    const s = score(runs, relevant);
    figures[label] = s;
    rows.push(
      {
        metric: `${label}: nDCG@${K}`,
        value: s.ndcg,
        unit: 'mean',
        note: `${s.ndcg.toFixed(4)}, ${s.queries} queries`,
      },
      { metric: `${label}: P@${K}`, value: s.precision, unit: 'mean' },
      { metric: `${label}: recall@${K}`, value: s.recall, unit: 'mean' },
    );
  }
  report('cranfield', rows, {
    collection: `${docs.length} abstracts, ${queries.length} queries, binary relevance (judged > 0)`,
    figures,
  });
}

runMain(main);
