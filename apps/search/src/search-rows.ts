/**
 * The rows of a search's answer: the queries' hits merged by URL and scored, each made a result
 * row with its excerpts, and the answer's excerpt budget spent over them in rank order.
 */
import type { SearchRequest, SearchResultRow } from '@app/contracts';
import { ExcerptBudget, focusExcerpts } from '@app/extraction';
import type { SearchHit } from '@app/providers';
import { UrlMerge } from '@app/research';
import { domainOf } from '@app/urls';

const DEFAULT_EXCERPT_CHARS = 500;

/** A result while it is being merged: the provider's hit plus what the pipeline learns about it. */
export interface Candidate {
  hit: SearchHit;
  key: string;
  domain: string;
  /** Best provider score, normalised per query to [0, 1]. */
  base: number;
  /** Queries that found it. */
  queries: Set<number>;
  score: number;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** Merges the queries' hits by normalised URL (see `UrlMerge`), each scored against its query's best. */
export function mergeHits(perQuery: SearchHit[][]): Candidate[] {
  const merged = new UrlMerge<SearchHit>();
  perQuery.forEach((hits, queryIndex) => {
    const best = Math.max(...hits.map((hit) => hit.score), Number.EPSILON);
    for (const hit of hits) merged.add(hit, Math.max(0, hit.score) / best, queryIndex);
  });
  const queries = perQuery.length;
  return merged.values().map(({ hit, key, score: base, queries: found }) => ({
    hit,
    key,
    domain: domainOf(hit.url),
    base,
    queries: found,
    score: queries > 1 ? 0.85 * base + 0.15 * ((found.size - 1) / (queries - 1)) : base,
  }));
}

export function resultRow(c: Candidate, request: SearchRequest): SearchResultRow {
  const perResult = request.advanced_settings?.excerpts?.max_chars_per_result ?? DEFAULT_EXCERPT_CHARS;
  const focus = request.objective ?? request.queries.join(' ');
  const excerpts =
    request.depth === 'auto' && c.hit.content
      ? focusExcerpts(c.hit.content, focus, perResult)
      : c.hit.snippet
        ? [c.hit.snippet.slice(0, perResult)]
        : [];
  return {
    url: c.hit.url,
    title: c.hit.title,
    snippet: c.hit.snippet,
    excerpts,
    date: c.hit.date,
    domain: c.domain,
    category: c.hit.category,
    score: round(c.score),
  };
}

/**
 * `max_excerpt_chars`: one budget over every excerpt-like string of the answer (snippet,
 * excerpts, highlights, summary), spent in rank order, each row's in that order. `text` is left
 * out: it is the page itself, sized by `advanced_settings.contents.max_chars`.
 */
export function capExcerpts(rows: SearchResultRow[], max: number | null): void {
  if (max === null) return;
  const budget = new ExcerptBudget(max);
  for (const row of rows) {
    row.snippet = budget.take(row.snippet);
    row.excerpts = budget.takeAll(row.excerpts);
    if (row.highlights) row.highlights = budget.takeAll(row.highlights);
    if (row.summary !== undefined) row.summary = budget.take(row.summary);
  }
}
