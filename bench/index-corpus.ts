/**
 * The pages and queries of the index benchmark (index.bench.ts): sentences of the pages the
 * repository ships shuffled into generated pages with their own names and numbers, and distinct
 * queries of two or three words taken from those sentences, both the same on every run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generatedPage, sourcePages } from './bench-util';

/** Deterministic pseudo-random numbers, so every run writes the same pages and queries. */
function rng(seed: number) {
  // mulberry32: integer arithmetic only, so the sequence is long and the same on every machine.
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Titles and sentences of every page the repository ships: the demo corpus, the fixture web, the quality fixture. */
const sources = () => sourcePages(['corpus', 'test/fixtures/web', 'bench/fixtures/quality/pages']);

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
    'esk',
    'wyn',
    'hal',
    'tor',
  ];
  const word = Array.from(
    { length: 2 + Math.floor(random() * 3) },
    () => syllables[Math.floor(random() * syllables.length)],
  ).join('');
  return word[0].toUpperCase() + word.slice(1);
}

/**
 * `n` pages under `dir` (1,000 a folder): each takes most sentences of one source page, shuffled,
 * a couple from another, and its own names and numbers, so common words keep their spread and
 * names are rare, as on the web. Written once per size and kept in the temp folder.
 */
export function writeCorpus(dir: string, n: number): void {
  const marker = path.join(dir, `.complete-v2-${n}`);
  if (fs.existsSync(marker)) return;
  fs.rmSync(dir, { recursive: true, force: true });
  const docs = sources();
  const random = rng(42);
  for (let i = 0; i < n; i++) {
    const folder = path.join(dir, String(Math.floor(i / 1000)).padStart(3, '0'));
    if (i % 1000 === 0) fs.mkdirSync(folder, { recursive: true });
    const source = docs[i % docs.length];
    const other = docs[Math.floor(random() * docs.length)];
    const names = Array.from({ length: 4 }, () => pseudoWord(random));
    fs.writeFileSync(path.join(folder, `page-${i}.html`), generatedPage(i, source, other, random, names, 997));
  }
  fs.writeFileSync(marker, '');
}

const STOP = new Set(
  'about after also been before being between both could does doing during each from further have having here into just more most once only other over same should some such than that their them then there these they this those through under until very were what when where which while whom will with would your'.split(
    ' ',
  ),
);

/** `count` distinct queries of two or three words taken from the source pages' sentences (and now and then a name). */
export function distinctQueries(count: number, seed = 7): string[] {
  const docs = sources();
  const random = rng(seed);
  const out = new Set<string>();
  while (out.size < count) {
    const source = docs[Math.floor(random() * docs.length)];
    const sentence = source.sentences[Math.floor(random() * source.sentences.length)];
    const words =
      sentence
        .toLowerCase()
        .match(/[a-z][a-z-]{3,}/g)
        ?.filter((w) => !STOP.has(w)) ?? [];
    if (words.length < 3) continue;
    const size = random() < 0.6 ? 2 : 3;
    const start = Math.floor(random() * (words.length - size + 1));
    let query = words.slice(start, start + size).join(' ');
    if (random() < 0.2) query += ` ${pseudoWord(random).toLowerCase()}`;
    out.add(query);
  }
  return [...out];
}
