/**
 * Ranking priors: what puts one page above another beyond its words. Set per page in the page
 * table (a page naming many entities yields, a home page stands for its site) and applied to the
 * retrieved results (the site a query names, the entity a listing's entry describes).
 */
import { MAX_INDEXED_CHARS } from './document';
import { type ImpactList, scoreOf, type Scored } from './impact-list';
import { MANY_NAMES } from './page-row';
import type { PageTable } from './page-table';
import { terms } from './text-analysis';
import { type HostNames, hostLabels, sameWord } from './typo-matching';

/** Results looked at for a listing whose entry names the entity a description is about. */
const LISTINGS_CHECKED = 3;
/** A name in a listing's entry: capitalised words in a row ("Marrowby Otter Trust", "Kestrel & Loaf"). */
const NAME_PHRASE = /\p{Lu}[\p{L}'’-]+(?:\s+(?:&|and|of|de)?\s*\p{Lu}[\p{L}'’-]+)*/gu;
/** The query spells the host's name: its home page, and its other pages a little. */
const NAMED_HOME_BOOST = 1.5;
const NAMED_SITE_BOOST = 1.1;
/** Results a query's best pages may lift by naming them (a link in words): the pool retrieved. */
export const MENTION_POOL = 30;
/** The best results whose text is read for the names of other results. */
const MENTIONERS = 3;
/** A named result gains this share of the score of the best result naming it. */
const MENTION_LIFT = 0.3;
/** A title shorter than this names nothing reliably ("Home", "FAQ" are stop words of a site). */
const MIN_NAMING_TITLE = 4;

/** What the rest of a query naming a site asks for: who holds less of it than the best, and a page's score for the name alone. */
interface RestMatcher {
  outmatched(doc: number): boolean;
  nameScore(doc: number): number;
}

/** What the ranking reads of stored pages. */
export interface StoredText {
  textOf(doc: number): { title: string; text: string };
  /** Each page's title, or at least its first NAMING_TITLE_CHARS characters (all `namingTitle` reads). */
  titlesOf(docs: number[]): Map<number, string>;
}

export class Ranking {
  constructor(
    private readonly pages: PageTable,
    private readonly hosts: HostNames,
    private readonly stored: StoredText,
  ) {}

  /**
   * Priors a page has beyond its words: a page that names many entities (a directory, a roundup)
   * is about none of them, so it yields to the page about one; a site's home page stands for the
   * site (both already in each posting's impact); a site whose host name the query spells
   * ("Ledgerlark" -> ledgerlark.test) is what the query names. BM25 alone ranks the directory
   * first for a description it matches term for term.
   */
  reweigh(
    results: Scored[],
    queryTerms: string[],
    named: Set<number>,
    lists: ImpactList[],
    listTerms: string[],
    admit?: (doc: number) => boolean,
  ): Scored[] {
    const p = this.pages;
    let navigational: Scored | null = null;
    const joined = queryTerms.join('');
    // Sites the query names in full ("Acme Robotics" for acme-robotics.test), not by one word of
    // their host that is also a word of a description ("bakery" of alderwick-bakeries.test).
    const whole = new Set([...named].filter((domain) => spelledInFull(p.domains[domain], queryTerms)));
    const asks = whole.size > 0 ? this.restMatcher(results, lists, listTerms) : null;
    for (const result of results) {
      if (!named.has(p.domain[result.doc])) continue;
      const inFull = whole.has(p.domain[result.doc]);
      const home = p.home[result.doc] === 1;
      // The name is a reason to prefer the entity's pages; its home page leads only where no
      // result holds more of what the rest of the query asks for ("revenue fiscal 2023").
      result.score *= home && !(inFull && asks!.outmatched(result.doc)) ? NAMED_HOME_BOOST : NAMED_SITE_BOOST;
      // The whole query is the site's name ("Ledgerlark", "Kestrel and Loaf"): a navigational
      // query, answered by the site's home page first, as a user typing a name expects.
      // So is a name the home page opens with, one of its words naming the host ("Lanthorne Tidal
      // Energy" on lanthorne-tidal.test).
      if (!home || navigational) continue;
      const labels = hostLabels(p.domains[p.domain[result.doc]]);
      const spells = (t: string) => labels.some((label) => sameWord(label, t));
      if (queryTerms.every(spells) || spells(joined) || this.opensWith(result.doc, queryTerms)) navigational = result;
    }
    results.sort((a, b) => b.score - a.score || a.doc - b.doc);
    const yielded = asks ? this.yieldHomes(results, whole, asks) : new Set<Scored>();
    if (yielded.size > 0) results.sort((a, b) => b.score - a.score || a.doc - b.doc);
    // A home page that yielded is not lifted back by the pages naming its site.
    if (this.liftMentioned(results, yielded)) results.sort((a, b) => b.score - a.score || a.doc - b.doc);
    this.promoteListed(results, queryTerms, lists, admit);
    if (navigational && results[0] !== navigational) {
      navigational.score = results[0].score * 1.01;
      results.sort((a, b) => b.score - a.score || a.doc - b.doc);
    }
    return results;
  }

  /**
   * A page the best results name by its title (a film's page naming its director, a song's page
   * its band) is what a question about either is likely to need next: it gains a share of the
   * score of the best result naming it. The title's own name is read, without a qualifier in
   * brackets ("Ilse Marnow (footballer)") or a site's name after a separator; a name must stand
   * as whole words, with its capitals, in the naming page. Pages of the same title (one
   * article's paragraphs) lift nothing among themselves. True when a score changed.
   */
  private liftMentioned(results: Scored[], settled: Set<Scored>): boolean {
    if (results.length <= 1) return false;
    const mentioners = results.slice(0, MENTIONERS).map((result) => ({ result, ...this.stored.textOf(result.doc) }));
    const titles = this.stored.titlesOf(results.slice(1).map((r) => r.doc));
    let changed = false;
    for (const result of results.slice(1)) {
      if (settled.has(result)) continue;
      const name = namingTitle(titles.get(result.doc) ?? '');
      if (name.length < MIN_NAMING_TITLE) continue;
      let lift = 0;
      for (const m of mentioners) {
        if (m.result === result || namingTitle(m.title) === name) continue;
        if (m.result.score * MENTION_LIFT > lift && mentionsWhole(m.text.slice(0, MAX_INDEXED_CHARS), name))
          lift = m.result.score * MENTION_LIFT;
      }
      if (lift > 0) {
        result.score += lift;
        changed = true;
      }
    }
    return changed;
  }

  /**
   * A named site's home page that holds less of what the rest of the query asks for than a page
   * about the entity (on its site, or naming it) yields to that page: "<Company> seed funding" is
   * answered by the story of the round, not by the home page's menu. The home pages that yielded.
   */
  private yieldHomes(results: Scored[], named: Set<number>, asks: RestMatcher): Set<Scored> {
    const yielded = new Set<Scored>();
    results.forEach((home, rank) => {
      if (this.pages.home[home.doc] !== 1 || !named.has(this.pages.domain[home.doc]) || !asks.outmatched(home.doc))
        return;
      const answer = results.find(
        (r, k) =>
          k > rank && !asks.outmatched(r.doc) && (named.has(this.pages.domain[r.doc]) || asks.nameScore(r.doc) > 0),
      );
      if (!answer) return;
      home.score = Math.min(home.score, answer.score * 0.99);
      yielded.add(home);
    });
    return yielded;
  }

  /**
   * The query's terms besides the names of the sites it names, and for a page how many of them it
   * holds: a page is outmatched when another result holds more.
   */
  private restMatcher(results: Scored[], lists: ImpactList[], listTerms: string[]): RestMatcher {
    const p = this.pages;
    const nameTerms = new Set<string>();
    for (const result of results) {
      const labels = hostLabels(p.domains[p.domain[result.doc]]);
      for (const term of listTerms)
        if (labels.some((label) => sameWord(label, term) || label.includes(term))) nameTerms.add(term);
    }
    const rest = lists.filter((_, k) => !nameTerms.has(listTerms[k]!));
    const names = lists.filter((_, k) => nameTerms.has(listTerms[k]!));
    // Each result's count, taken once: the home pages and their answers are asked about again and again.
    const held = new Map(results.map((r) => [r.doc, rest.filter((list) => scoreOf([list], r.doc) > 0).length]));
    let best = 0;
    for (const count of held.values()) best = Math.max(best, count);
    return {
      outmatched: (doc) => (held.get(doc) ?? 0) < best,
      nameScore: (doc) => (names.length ? scoreOf(names, doc) : 0),
    };
  }

  /** The page's title or opening words hold the query's terms in a row (its name as the page writes it). */
  private opensWith(doc: number, queryTerms: string[]): boolean {
    if (queryTerms.length === 0) return false;
    const row = this.stored.textOf(doc);
    const opening = terms(`${row.title} ${row.text.slice(0, 300)}`);
    for (let i = 0; i + queryTerms.length <= opening.length; i++)
      if (queryTerms.every((t, j) => sameWord(opening[i + j], t))) return true;
    return false;
  }

  /**
   * A listing among the first results (a directory, a roundup) answers a description with one of
   * its entries ("Ledgerlark — payroll software, Leeds, founded 2016"): the entry's entity, when its
   * own site is indexed, is what the query describes. Its home page is put just above the listing.
   */
  private promoteListed(
    results: Scored[],
    queryTerms: string[],
    lists: ImpactList[],
    admit?: (doc: number) => boolean,
  ): void {
    const wanted = new Set(queryTerms);
    if (wanted.size < 2) return;
    const byDoc = new Map(results.map((r) => [r.doc, r]));
    let changed = false;
    for (const listing of results.slice(0, LISTINGS_CHECKED)) {
      if (this.pages.names[listing.doc] <= MANY_NAMES) continue;
      // An entry must hold two of the query's words: a listing holding fewer has none such.
      if (lists.filter((list) => scoreOf([list], listing.doc) > 0).length < 2) continue;
      const text = this.stored.textOf(listing.doc).text.slice(0, MAX_INDEXED_CHARS);
      const stems = [...wanted].map((t) => t.slice(0, 4));
      let best: { entry: string; matched: number } | null = null;
      for (const entry of text.split(/\n+|(?<=[.!?])\s+(?=\p{Lu})/u)) {
        const lower = entry.toLowerCase();
        let near = 0;
        for (const stem of stems) if (lower.includes(stem)) near++;
        if (near < 2 && /^[\x00-\x7f]*$/.test(entry)) continue;
        const matched = new Set(terms(entry).filter((t) => wanted.has(t))).size;
        if (matched >= 2 && (!best || matched > best.matched)) best = { entry, matched };
      }
      if (!best) continue;
      for (const name of best.entry.match(NAME_PHRASE) ?? []) {
        const home = this.hosts.homeNamed(name);
        if (home === undefined || home === listing.doc || (admit && !admit(home))) continue;
        // The home page may rank below the results fetched: it is scored on its own.
        let result = byDoc.get(home);
        if (!result) {
          const score = scoreOf(lists, home);
          if (score <= 0) continue;
          result = { doc: home, score };
          results.push(result);
          byDoc.set(home, result);
        }
        if (result.score <= listing.score) result.score = listing.score * 1.01;
        changed = true;
        break;
      }
    }
    if (changed) results.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}

/** Every word of the host's name is spelled by a query term (one typo allowed in a long word). */
function spelledInFull(domain: string, queryTerms: string[]): boolean {
  const parts = domain
    .toLowerCase()
    .split('.')
    .filter((part) => part !== 'www');
  const words = (parts.length > 1 ? parts.slice(0, -1) : parts).flatMap((part) => terms(part.replace(/-/g, ' ')));
  return words.length > 0 && words.every((word) => queryTerms.some((t) => sameWord(word, t)));
}

/** How much of a title `namingTitle` reads. */
export const NAMING_TITLE_CHARS = 200;

/** A page title's name: without a trailing qualifier in brackets or a site's name after a separator ("Acme | Pricing" -> "Acme"). */
export function namingTitle(title: string): string {
  const head = title.slice(0, NAMING_TITLE_CHARS).split(/\s[|–—·]\s|\s-\s/)[0] ?? '';
  return head.replace(/\s*\([^()]*\)\s*$/, '').trim();
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** `name` stands in `text` as whole words (case kept). */
export function mentionsWhole(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = at === 0 ? '' : text[at - 1];
    const after = text[at + name.length] ?? '';
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}
