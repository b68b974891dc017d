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

/** What the ranking reads of stored pages. */
export interface StoredText {
  textOf(doc: number): { title: string; text: string };
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
  reweigh(results: Scored[], queryTerms: string[], named: Set<number>, lists: ImpactList[], admit?: (doc: number) => boolean): Scored[] {
    const p = this.pages;
    let navigational: Scored | null = null;
    const joined = queryTerms.join('');
    for (const result of results) {
      if (!named.has(p.domain[result.doc])) continue;
      const home = p.home[result.doc] === 1;
      result.score *= home ? NAMED_HOME_BOOST : NAMED_SITE_BOOST;
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
    if (this.liftMentioned(results)) results.sort((a, b) => b.score - a.score || a.doc - b.doc);
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
   * brackets ("David Platt (footballer)") or a site's name after a separator; a name must stand
   * as whole words, with its capitals, in the naming page. Pages of the same title (one
   * article's paragraphs) lift nothing among themselves. True when a score changed.
   */
  private liftMentioned(results: Scored[]): boolean {
    if (results.length <= 1) return false;
    const mentioners = results.slice(0, MENTIONERS).map((result) => ({ result, ...this.stored.textOf(result.doc) }));
    const titles = this.stored.titlesOf(results.slice(1).map((r) => r.doc));
    let changed = false;
    for (const result of results.slice(1)) {
      const name = namingTitle(titles.get(result.doc) ?? '');
      if (name.length < MIN_NAMING_TITLE) continue;
      let lift = 0;
      for (const m of mentioners) {
        if (m.result === result || namingTitle(m.title) === name) continue;
        if (m.result.score * MENTION_LIFT > lift && mentionsWhole(m.text.slice(0, MAX_INDEXED_CHARS), name)) lift = m.result.score * MENTION_LIFT;
      }
      if (lift > 0) {
        result.score += lift;
        changed = true;
      }
    }
    return changed;
  }

  /** The page's title or opening words hold the query's terms in a row (its name as the page writes it). */
  private opensWith(doc: number, queryTerms: string[]): boolean {
    if (queryTerms.length === 0) return false;
    const row = this.stored.textOf(doc);
    const opening = terms(`${row.title} ${row.text.slice(0, 300)}`);
    for (let i = 0; i + queryTerms.length <= opening.length; i++) if (queryTerms.every((t, j) => sameWord(opening[i + j], t))) return true;
    return false;
  }

  /**
   * A listing among the first results (a directory, a roundup) answers a description with one of
   * its entries ("Ledgerlark — payroll software, Leeds, founded 2016"): the entry's entity, when its
   * own site is indexed, is what the query describes. Its home page is put just above the listing.
   */
  private promoteListed(results: Scored[], queryTerms: string[], lists: ImpactList[], admit?: (doc: number) => boolean): void {
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

/** A page title's name: without a trailing qualifier in brackets or a site's name after a separator ("Acme | Pricing" -> "Acme"). */
export function namingTitle(title: string): string {
  const head = title.slice(0, 200).split(/\s[|–—·]\s|\s-\s/)[0] ?? '';
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
