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

export class Ranking {
  constructor(
    private readonly pages: PageTable,
    private readonly hosts: HostNames,
    private readonly textOf: (doc: number) => { title: string; text: string },
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
    this.promoteListed(results, queryTerms, lists, admit);
    if (navigational && results[0] !== navigational) {
      navigational.score = results[0].score * 1.01;
      results.sort((a, b) => b.score - a.score || a.doc - b.doc);
    }
    return results;
  }

  /** The page's title or opening words hold the query's terms in a row (its name as the page writes it). */
  private opensWith(doc: number, queryTerms: string[]): boolean {
    if (queryTerms.length === 0) return false;
    const row = this.textOf(doc);
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
      const text = this.textOf(listing.doc).text.slice(0, MAX_INDEXED_CHARS);
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
