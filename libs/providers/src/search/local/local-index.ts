import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import MiniSearch, { type AsPlainObject, type Options, type SearchResult } from 'minisearch';
import type { Category, Freshness, SearchHit, SearchPage, SearchQuery } from '../search-provider.port';
import { entityCount, processTerm, snippetFor, terms, tokenize } from './text-analysis';
import { domainMatches, normalizeDomain } from './urls';

/** One page as the index keeps it. */
export interface IndexedDocument {
  /** Identity: the canonical (or normalised) URL; adding the same URL again replaces the page. */
  url: string;
  title: string;
  /** The whole main text: searched, and returned as a hit's `content`. */
  text: string;
  /** Meta description, used for the snippet when no sentence matches the query. */
  description: string | null;
  /** `YYYY-MM-DD`. */
  date: string | null;
  category: Category | null;
  language: string | null;
  /** Lower-case host name, matched by domain filters with its subdomains. */
  domain: string;
  /** What added it (`folder`, or the seed as written in LOCAL_INDEX_SEEDS): a source is rebuilt on its own. */
  source: string;
}

// Bump when the document shape or the analysis changes: a stored index of another format is rebuilt.
// 2: crawled pages no longer take a canonical on another host as their identity. An index saved
// as 1 may hold such claims, so it is not loaded (and is rebuilt) rather than served on.
const FORMAT = 2;
const DOCUMENTS_FILE = 'local-documents.json';
const MINISEARCH_FILE = 'local-minisearch.json';
// Longer pages are cut for the index (not for `content`): BM25 gains nothing from a book's tail.
const MAX_INDEXED_CHARS = 100_000;

const MINISEARCH_OPTIONS: Options<IndexedDocument> = {
  idField: 'url',
  fields: ['title', 'text'],
  extractField: (doc, field) => (field === 'text' ? doc.text.slice(0, MAX_INDEXED_CHARS) : doc[field as keyof IndexedDocument]),
  tokenize,
  processTerm,
  // Exact terms only: prefix and fuzzy expansion cost milliseconds per query on a large index.
  searchOptions: { boost: { title: 2.5 }, prefix: false, fuzzy: false, combineWith: 'OR', bm25: { k: 1.2, b: 0.7, d: 0.5 } },
};

/** Names a page about one entity mentions at most before it counts as a listing (prior halves at twice this). */
const MANY_NAMES = 10;
/** Results looked at for a listing whose entry names the entity a description is about. */
const LISTINGS_CHECKED = 3;
/** A name in a listing's entry: capitalised words in a row ("Marrowby Otter Trust", "Kestrel & Loaf"). */
const NAME_PHRASE = /\p{Lu}[\p{L}'’-]+(?:\s+(?:&|and|of|de)?\s*\p{Lu}[\p{L}'’-]+)*/gu;
/** A site's home page over its other pages, all else equal. */
const HOME_BOOST = 1.3;
/** The query spells the host's name: its home page, and its other pages a little. */
const NAMED_HOME_BOOST = 1.5;
const NAMED_SITE_BOOST = 1.1;

/** `https://www.kestrel-and-loaf.test/` -> home; `/about` -> not. */
const isHome = (url: string) => {
  try {
    const { pathname, search } = new URL(url);
    return (pathname === '/' || pathname === '') && !search;
  } catch {
    return false;
  }
};

/** The page's title or opening words hold the query's terms in a row (its name as the page writes it). */
const opensWith = (doc: IndexedDocument, queryTerms: string[]) => {
  const opening = terms(`${doc.title} ${doc.text.slice(0, 300)}`);
  if (queryTerms.length === 0) return false;
  for (let i = 0; i + queryTerms.length <= opening.length; i++) if (queryTerms.every((t, j) => sameWord(opening[i + j]!, t))) return true;
  return false;
};

/** The same word, or one typo away in a long one ("ledgrlark" for "ledgerlark"). */
function sameWord(label: string, term: string): boolean {
  if (label === term) return true;
  if (term.length < 6 || Math.abs(label.length - term.length) > 1) return false;
  // One insertion, deletion, substitution or swap of neighbours.
  let i = 0;
  while (i < label.length && label[i] === term[i]) i++;
  const rest = (a: number, b: number) => label.slice(a) === term.slice(b);
  return rest(i + 1, i + 1) || rest(i + 1, i) || rest(i, i + 1) || (label[i] === term[i + 1] && label[i + 1] === term[i] && rest(i + 2, i + 2));
}

/** The host's name words: `www.kestrel-and-loaf.test` -> kestrel, loaf, kestrelandloaf (the top-level domain and www dropped). */
function hostLabels(domain: string): string[] {
  const parts = domain.toLowerCase().split('.').filter((p) => p !== 'www');
  const name = parts.length > 1 ? parts.slice(0, -1) : parts;
  const words = name.flatMap((p) => p.split('-')).map((w) => processTerm(w)).filter((w): w is string => !!w);
  return [...words, ...name.map((p) => p.replace(/-/g, ''))];
}

const FRESHNESS_WINDOW: Record<Freshness, (now: Date) => Date> = {
  hour: (now) => new Date(now.getTime() - 3_600_000),
  day: (now) => new Date(now.getTime() - 86_400_000),
  week: (now) => new Date(now.getTime() - 7 * 86_400_000),
  month: (now) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, now.getUTCDate())),
  year: (now) => new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate())),
};

export interface LocalIndexOptions {
  /** The clock freshness windows count back from. */
  now?: () => Date;
}

/** A BM25 (minisearch) index of pages with the filters of the search port applied inside it. */
export class LocalIndex {
  private mini: MiniSearch<IndexedDocument>;
  /** Each page's ranking prior (see `reweigh`), computed when first needed. */
  private readonly priors = new Map<string, { names: number; prior: number }>();
  /** Home pages by their host's name words, built when first needed. */
  private homes: Map<string, string> | null = null;
  private readonly docs = new Map<string, IndexedDocument>();
  private readonly now: () => Date;

  constructor(options: LocalIndexOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.mini = new MiniSearch(MINISEARCH_OPTIONS);
  }

  get size(): number {
    return this.docs.size;
  }

  get(url: string): IndexedDocument | undefined {
    return this.docs.get(url);
  }

  documents(): IndexedDocument[] {
    return [...this.docs.values()];
  }

  /** Adds the page, replacing the one with the same URL (a re-crawl). */
  upsert(doc: IndexedDocument): void {
    this.priors.delete(doc.url);
    this.homes = null;
    if (this.docs.has(doc.url)) this.mini.discard(doc.url);
    this.docs.set(doc.url, doc);
    this.mini.add(doc);
  }

  remove(url: string): boolean {
    this.priors.delete(url);
    this.homes = null;
    if (!this.docs.delete(url)) return false;
    this.mini.discard(url);
    return true;
  }

  search(query: SearchQuery): SearchPage {
    const limit = Math.max(1, Math.min(100, Math.floor(query.limit ?? 10)));
    const page = Math.max(1, Math.floor(query.page ?? 1));
    const keep = this.compileFilter(query);
    const filter = keep ? { filter: (result: SearchResult) => keep(this.docs.get(result.id as string)!) } : {};
    let results = query.query.trim() ? this.mini.search(query.query, filter) : [];
    // A rare word no page has is likely misspelt ("Ledgerlrak"): it alone is matched loosely, so
    // exact queries keep their exact scores and cost.
    const queryTerms = terms(query.query);
    const matched = new Set(results.flatMap((r) => r.queryTerms));
    const missing = new Set(queryTerms.filter((t) => !matched.has(t) && t.length >= 5 && !/\d/.test(t)));
    if (missing.size > 0) results = this.mini.search(query.query, { ...filter, fuzzy: (term) => (missing.has(term) ? 0.25 : false) });
    results = this.reweigh(results, queryTerms);
    const hits = results.slice((page - 1) * limit, page * limit).map((result) => this.toHit(result));
    return { hits, page, hasMore: results.length > page * limit, warnings: [] };
  }

  /** Writes the index under `dir`, each file atomically; `meta` comes back from `load`. */
  async save(dir: string, meta: Record<string, unknown>): Promise<void> {
    // Replaced pages leave postings behind that minisearch cleans lazily, shifting document
    // frequencies (and scores) as it goes; clean them now so the saved index scores as this one will.
    if (this.mini.dirtCount > 0) await this.mini.vacuum();
    await fs.mkdir(dir, { recursive: true });
    // Both files carry one generation: a crash between the two renames leaves a pair that `load`
    // refuses (and the caller rebuilds) rather than an index that disagrees with its documents.
    const generation = randomUUID();
    await writeAtomic(path.join(dir, MINISEARCH_FILE), JSON.stringify({ format: FORMAT, generation, index: this.mini.toJSON() }));
    await writeAtomic(path.join(dir, DOCUMENTS_FILE), JSON.stringify({ format: FORMAT, generation, meta, documents: this.documents() }));
  }

  /** The index saved under `dir`, or null when there is none usable (missing, torn, other format). */
  static async load(dir: string, options: LocalIndexOptions = {}): Promise<{ index: LocalIndex; meta: Record<string, unknown> } | null> {
    try {
      const [miniFile, docsFile] = await Promise.all([
        fs.readFile(path.join(dir, MINISEARCH_FILE), 'utf8'),
        fs.readFile(path.join(dir, DOCUMENTS_FILE), 'utf8'),
      ]);
      const stored = JSON.parse(miniFile) as { format: number; generation: string; index: AsPlainObject };
      const documents = JSON.parse(docsFile) as { format: number; generation: string; meta: Record<string, unknown>; documents: IndexedDocument[] };
      if (stored.format !== FORMAT || documents.format !== FORMAT || stored.generation !== documents.generation) return null;
      const index = new LocalIndex(options);
      index.mini = MiniSearch.loadJS(stored.index, MINISEARCH_OPTIONS);
      for (const doc of documents.documents) index.docs.set(doc.url, doc);
      if (index.mini.documentCount !== index.docs.size) return null;
      return { index, meta: documents.meta };
    } catch {
      return null;
    }
  }

  private compileFilter(query: SearchQuery): ((doc: IndexedDocument) => boolean) | null {
    const checks: Array<(doc: IndexedDocument) => boolean> = [];
    const include = (query.includeDomains ?? []).map(normalizeDomain).filter(Boolean);
    const exclude = (query.excludeDomains ?? []).map(normalizeDomain).filter(Boolean);
    if (include.length) checks.push((doc) => include.some((domain) => domainMatches(doc.domain, domain)));
    if (exclude.length) checks.push((doc) => !exclude.some((domain) => domainMatches(doc.domain, domain)));

    const fresh = query.freshness ? FRESHNESS_WINDOW[query.freshness](this.now()).toISOString().slice(0, 10) : undefined;
    const from = [query.dateFrom, fresh].filter((d): d is string => !!d).sort().pop();
    const to = query.dateTo;
    // Dates are days, so `hour` keeps pages dated on the day an hour ago fell on, or later.
    if (from || to) checks.push((doc) => doc.date !== null && (!from || doc.date >= from) && (!to || doc.date <= to));

    if (query.category) checks.push((doc) => doc.category === query.category);
    const language = query.language ? primaryLanguage(query.language) : undefined;
    // A page of unknown language is kept: nothing says it is in another one.
    if (language) checks.push((doc) => doc.language === null || primaryLanguage(doc.language) === language);
    if (checks.length === 0) return null;
    return (doc) => checks.every((check) => check(doc));
  }

  /**
   * Priors a page has beyond its words: a page that names many entities (a directory, a roundup)
   * is about none of them, so it yields to the page about one; a site's home page stands for the
   * site; a site whose host name the query spells ("Ledgerlark" -> ledgerlark.test) is what the
   * query names. BM25 alone ranks the directory first for a description it matches term for term.
   */
  private reweigh(results: SearchResult[], queryTerms: string[]): SearchResult[] {
    const joined = new Set(queryTerms.slice(1).map((t, i) => `${queryTerms[i]}${t}`));
    let navigational: SearchResult | null = null;
    for (const result of results) {
      const doc = this.docs.get(result.id as string)!;
      let prior = this.priorOf(doc);
      const labels = hostLabels(doc.domain);
      const spells = (t: string) => labels.some((label) => sameWord(label, t));
      const named = queryTerms.some(spells) || [...joined].some(spells) || spells(queryTerms.join(''));
      if (named) prior *= isHome(doc.url) ? NAMED_HOME_BOOST : NAMED_SITE_BOOST;
      result.score *= prior;
      // The whole query is the site's name ("Ledgerlark", "Kestrel and Loaf"): a navigational
      // query, answered by the site's home page first, as a user typing a name expects.
      // So is a name the home page opens with, one of its words naming the host ("Lanthorne Tidal
      // Energy" on lanthorne-tidal.test).
      if (named && isHome(doc.url) && (queryTerms.every(spells) || spells(queryTerms.join('')) || opensWith(doc, queryTerms))) navigational ??= result;
    }
    results.sort((a, b) => b.score - a.score);
    this.promoteListed(results, queryTerms);
    if (navigational && results[0] !== navigational) {
      navigational.score = results[0]!.score * 1.01;
      results.sort((a, b) => b.score - a.score);
    }
    return results;
  }

  /**
   * A listing among the first results (a directory, a roundup) answers a description with one of
   * its entries ("Ledgerlark — payroll software, Leeds, founded 2016"): the entry's entity, when its
   * own site is indexed, is what the query describes. Its home page is put just above the listing.
   */
  private promoteListed(results: SearchResult[], queryTerms: string[]): void {
    const wanted = new Set(queryTerms);
    if (wanted.size < 2) return;
    const byId = new Map(results.map((r) => [r.id as string, r]));
    for (const listing of results.slice(0, LISTINGS_CHECKED)) {
      const doc = this.docs.get(listing.id as string)!;
      if (this.traitsOf(doc).names <= MANY_NAMES) continue;
      let best: { entry: string; matched: number } | null = null;
      for (const entry of doc.text.split(/\n+|(?<=[.!?])\s+(?=\p{Lu})/u)) {
        const matched = new Set(terms(entry).filter((t) => wanted.has(t))).size;
        if (matched >= 2 && (!best || matched > best.matched)) best = { entry, matched };
      }
      if (!best) continue;
      for (const name of best.entry.match(NAME_PHRASE) ?? []) {
        const home = this.homeNamed(name);
        const result = home && home !== doc.url ? byId.get(home) : undefined;
        if (!result) continue;
        if (result.score <= listing.score) result.score = listing.score * 1.01;
        break;
      }
    }
    results.sort((a, b) => b.score - a.score);
  }

  /** The home page of the indexed site a name spells ("Kestrel & Loaf" -> kestrel-and-loaf.test/), if one. */
  private homeNamed(name: string): string | undefined {
    if (!this.homes) {
      this.homes = new Map();
      for (const doc of this.docs.values()) if (isHome(doc.url)) for (const label of hostLabels(doc.domain)) if (!this.homes.has(label)) this.homes.set(label, doc.url);
    }
    const words = terms(name);
    return this.homes.get(words.join('')) ?? (words[0] && words[0].length >= 4 ? this.homes.get(words[0]) : undefined);
  }

  private priorOf(doc: IndexedDocument): number {
    return this.traitsOf(doc).prior;
  }

  /** How many names the page mentions and the prior that follows, counted once per page (not per search). */
  private traitsOf(doc: IndexedDocument): { names: number; prior: number } {
    let traits = this.priors.get(doc.url);
    if (!traits) {
      const names = entityCount(doc.text.slice(0, MAX_INDEXED_CHARS));
      traits = { names, prior: (1 / (1 + Math.max(0, names - MANY_NAMES) / MANY_NAMES)) * (isHome(doc.url) ? HOME_BOOST : 1) };
      this.priors.set(doc.url, traits);
    }
    return traits;
  }

  private toHit(result: SearchResult): SearchHit {
    const doc = this.docs.get(result.id as string)!;
    return {
      url: doc.url,
      title: doc.title,
      snippet: snippetFor(doc.text, result.terms, doc.description),
      date: doc.date,
      category: doc.category,
      language: doc.language,
      score: result.score,
      content: doc.text,
    };
  }
}

/** `en-GB` -> `en`: a filter for English keeps British and American pages alike. */
const primaryLanguage = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];

async function writeAtomic(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  const handle = await fs.open(tmp, 'w');
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
}
