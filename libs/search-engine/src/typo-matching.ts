/**
 * Typo and host matching: a query word no page has is matched with indexed words a typo or two
 * away (`Vocabulary`), and a query that spells a site's host name, with a typo allowed in a long
 * word, names that site (`HostNames`).
 */
import type { PageTable } from './page-table';
import { processTerm, terms } from './text-analysis';

/** A word no page has is matched with up to a quarter of its letters changed. */
const FUZZY_SHARE = 0.25;
/** Indexed words a misspelt one is matched with at most, nearest first. */
const MAX_NEAR = 8;

/** The same word, or one typo away in a long one ("ledgrlark" for "ledgerlark"). */
export function sameWord(label: string, term: string): boolean {
  if (label === term) return true;
  if (term.length < 6 || Math.abs(label.length - term.length) > 1) return false;
  // One insertion, deletion, substitution or swap of neighbours.
  let i = 0;
  while (i < label.length && label[i] === term[i]) i++;
  const rest = (a: number, b: number) => label.slice(a) === term.slice(b);
  return (
    rest(i + 1, i + 1) ||
    rest(i + 1, i) ||
    rest(i, i + 1) ||
    (label[i] === term[i + 1] && label[i + 1] === term[i] && rest(i + 2, i + 2))
  );
}

/** The host's name words: `www.kestrel-and-loaf.test` -> kestrel, loaf, kestrelandloaf (the top-level domain and www dropped). */
export function hostLabels(domain: string): string[] {
  const parts = domain
    .toLowerCase()
    .split('.')
    .filter((p) => p !== 'www');
  const name = parts.length > 1 ? parts.slice(0, -1) : parts;
  const words = name
    .flatMap((p) => p.split('-'))
    .map((w) => processTerm(w))
    .filter((w): w is string => !!w);
  return [...words, ...name.map((p) => p.replace(/-/g, ''))];
}

/** The word with one letter left out, each way. */
function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Which of a–z a word holds, one bit each (other characters share the last bit). */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i) - 97;
    mask |= 1 << (c >= 0 && c < 26 ? c : 26);
  }
  return mask;
}

function bitCount(n: number): number {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const rowA = new Int32Array(128);
const rowB = new Int32Array(128);

/** Edit distance up to `max` (insert, delete, substitute); `max + 1` once it is certainly beyond. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length >= 127 || b.length >= 127) return a === b ? 0 : max + 1;
  let previous = rowA;
  let row = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    const swap = previous;
    previous = row;
    row = swap;
  }
  return previous[b.length];
}

/** Words remembered per cache, the oldest forgotten first. */
const REMEMBERED_WORDS = 10_000;

/** Keeps `value` under `key` in a bounded cache and returns it. */
function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= REMEMBERED_WORDS) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/** Every indexed term, by length, for typo matching: read when first needed, forgotten after each write. */
export class Vocabulary {
  private vocabulary: Map<string, { terms: string[]; masks: number[] }> | null = null;
  /** What `near` found per word, until the vocabulary changes. */
  private readonly cache = new Map<string, Array<{ term: string; distance: number }>>();

  constructor(private readonly indexed: () => Iterable<string>) {}

  /** The index's words changed. */
  forget(): void {
    this.vocabulary = null;
    this.cache.clear();
  }

  /** Indexed terms within a quarter of `term`'s letters of it (at most two edits), nearest first. */
  near(term: string): Array<{ term: string; distance: number }> {
    const known = this.cache.get(term);
    if (known) return known;
    if (!this.vocabulary) {
      // Words by length and first letter, and by length and last letter: a typo seldom changes both ends.
      this.vocabulary = new Map();
      const put = (key: string, t: string, mask: number) => {
        let bucket = this.vocabulary!.get(key);
        if (!bucket) this.vocabulary!.set(key, (bucket = { terms: [], masks: [] }));
        bucket.terms.push(t);
        bucket.masks.push(mask);
      };
      for (const t of this.indexed()) {
        const mask = letterMask(t);
        put(`${t.length}^${t[0]}`, t, mask);
        put(`${t.length}$${t[t.length - 1]}`, t, mask);
      }
    }
    const max = Math.min(2, Math.round(term.length * FUZZY_SHARE));
    const mask = letterMask(term);
    const found = new Map<string, number>();
    for (let length = term.length - max; length <= term.length + max; length++) {
      for (const key of [`${length}^${term[0]}`, `${length}$${term[term.length - 1]}`]) {
        const bucket = this.vocabulary.get(key);
        if (!bucket) continue;
        for (let i = 0; i < bucket.terms.length; i++) {
          // An edit adds or removes at most one letter of a–z each side: a cheap test first.
          if (bitCount(mask ^ bucket.masks[i]) > 2 * max || found.has(bucket.terms[i])) continue;
          const distance = editDistance(term, bucket.terms[i], max);
          if (distance <= max) found.set(bucket.terms[i], distance);
        }
      }
    }
    return remember(
      this.cache,
      term,
      [...found]
        .map(([t, distance]) => ({ term: t, distance }))
        .sort((a, b) => a.distance - b.distance || (a.term < b.term ? -1 : 1))
        .slice(0, MAX_NEAR),
    );
  }
}

/** Host name words -> domain ids, and host name words -> home page ids: built when first needed, again when the domains or home pages change. */
export class HostNames {
  private labels: { exact: Map<string, number[]>; byDeletion: Map<string, string[]> } | null = null;
  private labelsVersion = -1;
  private homes: Map<string, number> | null = null;
  private homesVersion = -1;
  /** What `domainsSpelledBy` found per word, until the domains change. */
  private readonly spelledCache = new Map<string, number[]>();

  constructor(private readonly pages: PageTable) {}

  /** Domain ids whose host name the query spells ("Ledgerlark" -> ledgerlark.test), with one typo allowed in a long word. */
  namedDomains(queryTerms: string[]): Set<number> {
    const named = new Set<number>();
    if (queryTerms.length === 0) return named;
    const spelled = new Set([
      ...queryTerms,
      ...queryTerms.slice(1).map((t, i) => `${queryTerms[i]}${t}`),
      queryTerms.join(''),
    ]);
    for (const word of spelled) for (const id of this.domainsSpelledBy(word)) named.add(id);
    return named;
  }

  /** Domain ids whose host name `word` spells, with one typo allowed in a long word (remembered per word). */
  private domainsSpelledBy(word: string): number[] {
    if (this.labelsVersion !== this.pages.domainsVersion) {
      this.labels = null;
      this.spelledCache.clear();
      this.labelsVersion = this.pages.domainsVersion;
    }
    const known = this.spelledCache.get(word);
    if (known) return known;
    const labels = (this.labels ??= this.labelIndex());
    const ids = new Set(labels.exact.get(word) ?? []);
    if (word.length >= 6) {
      // One typo: the label and the word share a form with one letter deleted (or are one).
      for (const form of [word, ...deletions(word)]) {
        for (const label of labels.byDeletion.get(form) ?? []) {
          if (label !== word && sameWord(label, word)) for (const id of labels.exact.get(label)!) ids.add(id);
        }
      }
    }
    return remember(this.spelledCache, word, [...ids]);
  }

  /** Host name words -> domain ids, and each word's one-letter deletions -> words, for typo lookups. */
  private labelIndex(): { exact: Map<string, number[]>; byDeletion: Map<string, string[]> } {
    const exact = new Map<string, number[]>();
    const byDeletion = new Map<string, string[]>();
    this.pages.domains.forEach((domain, id) => {
      if (!domain) return;
      for (const label of hostLabels(domain)) {
        const ids = exact.get(label);
        if (ids) {
          if (!ids.includes(id)) ids.push(id);
          continue;
        }
        exact.set(label, [id]);
        if (label.length < 5) continue;
        for (const form of [label, ...deletions(label)]) {
          const words = byDeletion.get(form);
          if (!words) byDeletion.set(form, [label]);
          else if (!words.includes(label)) words.push(label);
        }
      }
    });
    return { exact, byDeletion };
  }

  /** The home page of the indexed site a name spells ("Kestrel & Loaf" -> kestrel-and-loaf.test/), if one. */
  homeNamed(name: string): number | undefined {
    if (!this.homes || this.homesVersion !== this.pages.homesVersion) {
      this.homes = new Map();
      this.homesVersion = this.pages.homesVersion;
      const p = this.pages;
      for (let id = 1; id < p.live.length; id++) {
        if (!p.live[id] || !p.home[id]) continue;
        for (const label of hostLabels(p.domains[p.domain[id]])) if (!this.homes.has(label)) this.homes.set(label, id);
      }
    }
    const words = terms(name);
    return this.homes.get(words.join('')) ?? (words[0] && words[0].length >= 4 ? this.homes.get(words[0]) : undefined);
  }
}
