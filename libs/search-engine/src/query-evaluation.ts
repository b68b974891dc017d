/**
 * Query evaluation: a query's words as postings lists (a word no page has, matched loosely with
 * its near spellings), the best pages by top-k retrieval under the query's filters (and the best
 * of any site the query names), ranked with the priors, one page of them read as hits.
 */
import type { SearchHit, SearchPage, SearchQuery } from '@app/providers';
import type { IndexedDocument } from './document';
import type { ImpactList, Scored } from './impact-list';
import type { PageTable } from './page-table';
import { MENTION_POOL } from './ranking-priors';
import { snippetFor, terms } from './text-analysis';
import { topK } from './top-k';

/** A misspelt word's near spellings weigh this much less than an exact match. */
const FUZZY_WEIGHT = 0.45;

/** A stored page as a hit is made from. */
export type StoredPage = Omit<IndexedDocument, 'domain' | 'source'>;

/** What evaluation reads: the index's postings, page table, typo and host matching, filters, ranking and stored pages. */
export interface Retrieval {
  readonly pages: PageTable;
  list(term: string): ImpactList | null;
  near(term: string): Array<{ term: string; distance: number }>;
  filter(query: SearchQuery): ((doc: number) => boolean) | undefined;
  namedDomains(queryTerms: string[]): Set<number>;
  reweigh(
    results: Scored[],
    queryTerms: string[],
    named: Set<number>,
    lists: ImpactList[],
    listTerms: string[],
    admit?: (doc: number) => boolean,
  ): Scored[];
  rows(ids: number[]): Map<number, StoredPage>;
}

export function evaluate(query: SearchQuery, r: Retrieval): SearchPage {
  const limit = Math.max(1, Math.min(100, Math.floor(query.limit ?? 10)));
  const page = Math.max(1, Math.floor(query.page ?? 1));
  // A page dropped since a word's postings were cached is still in them (until they are read
  // again): it is never a result.
  const filter = r.filter(query);
  const live = r.pages.live;
  const admit = (doc: number) => live[doc] === 1 && (!filter || filter(doc));
  const queryTerms = [...new Set(terms(query.query))];
  const lists: ImpactList[] = [];
  const matchedTerms: string[] = [];
  const missing: string[] = [];
  for (const term of queryTerms) {
    const list = r.list(term);
    if (list) {
      lists.push(list);
      matchedTerms.push(term);
    } else missing.push(term);
  }
  // A rare word no page has is likely misspelt ("Ledgerlrak"): it alone is matched loosely, so
  // exact queries keep their exact scores and cost.
  for (const term of missing) {
    if (term.length < 5 || /\d/.test(term)) continue;
    for (const { term: near, distance } of r.near(term)) {
      const list = r.list(near);
      if (!list) continue;
      lists.push({ ...list, weight: (FUZZY_WEIGHT * term.length) / (term.length + distance) });
      matchedTerms.push(near);
    }
  }
  const wanted = page * limit + 1;
  const found = new Map<number, number>();
  // A few more than a page: a page the best results name may rise into it (see the ranking).
  for (const hit of topK(lists, Math.max(wanted, MENTION_POOL), admit)) found.set(hit.doc, hit.score);
  // Pages of a site the query names may rise above what BM25 alone ranks first: its best pages are fetched too.
  const named = r.namedDomains(queryTerms);
  if (named.size > 0) {
    const onNamed = (doc: number) => named.has(r.pages.domain[doc]) && (!admit || admit(doc));
    for (const hit of topK(lists, wanted, onNamed)) found.set(hit.doc, hit.score);
  }
  const results = r.reweigh(
    [...found].map(([doc, score]) => ({ doc, score })),
    queryTerms,
    named,
    lists,
    matchedTerms,
    admit,
  );
  const shown = results.slice((page - 1) * limit, page * limit);
  // One read for the page of results.
  const rows = r.rows(shown.map((result) => result.doc));
  const hits = shown.map((result) => toHit(result, rows.get(result.doc)!, matchedTerms, query.withContent === true));
  return { hits, page, hasMore: results.length > page * limit, warnings: [] };
}

function toHit(result: Scored, row: StoredPage, matchedTerms: string[], withContent: boolean): SearchHit {
  // A PDF's hit is its page that holds the most of the query's terms: cited as `#page=N`.
  const page = bestPage(row.text, matchedTerms);
  const text = page ? page.text : row.text;
  return {
    url: page ? `${row.url}#page=${page.number}` : row.url,
    title: row.title,
    snippet: snippetFor(text, matchedTerms, row.description),
    date: row.date,
    category: row.category,
    language: row.language,
    score: result.score,
    ...(withContent && { content: text }),
  };
}

/** Separates a PDF's pages in the text the index keeps (see `toIndexedDocument`). */
export const PAGE_BREAK = '\f';

/** The page of a paged text that holds the most of `matchedTerms` (the first such), or null for a text without pages. */
function bestPage(text: string, matchedTerms: readonly string[]): { number: number; text: string } | null {
  if (!text.includes(PAGE_BREAK)) return null;
  const wanted = new Set(matchedTerms);
  const pages = text.split(PAGE_BREAK);
  let best = 0;
  let bestScore = -1;
  pages.forEach((page, i) => {
    const score = terms(page).filter((term) => wanted.has(term)).length;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return { number: best + 1, text: pages[best]!.trim() };
}
