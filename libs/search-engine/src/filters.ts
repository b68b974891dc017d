import { freshnessStart } from '@app/domain';
import { CATEGORIES, type SearchQuery } from '@app/providers';
import { domainMatches, normalizeDomain } from '@app/urls';
import type { PageTable } from './page-table';
import { dayNumber, NO_DATE, primaryLanguage } from './page-row';

/**
 * The query's filters (domains, dates, category, language) as one test of a page id against the
 * page table, applied inside the retrieval; undefined when the query has none.
 */
export function compileFilter(
  query: SearchQuery,
  p: PageTable,
  now: () => Date,
): ((doc: number) => boolean) | undefined {
  const checks: Array<(doc: number) => boolean> = [];
  const include = (query.includeDomains ?? []).map(normalizeDomain).filter(Boolean);
  const exclude = (query.excludeDomains ?? []).map(normalizeDomain).filter(Boolean);
  if (include.length || exclude.length) {
    // Decided once per domain the index holds, then one lookup per page.
    const allowed = new Uint8Array(p.domains.length);
    p.domains.forEach((domain, id) => {
      allowed[id] =
        (!include.length || include.some((d) => domainMatches(domain, d))) &&
        !exclude.some((d) => domainMatches(domain, d))
          ? 1
          : 0;
    });
    checks.push((doc) => allowed[p.domain[doc]] === 1);
  }
  const fresh = query.freshness ? freshnessStart(query.freshness, now()).toISOString().slice(0, 10) : undefined;
  const fromDay = [query.dateFrom, fresh]
    .filter((d): d is string => !!d)
    .sort()
    .pop();
  // Dates are days, so `hour` keeps pages dated on the day an hour ago fell on, or later.
  if (fromDay || query.dateTo) {
    const from = dayNumber(fromDay);
    const to = query.dateTo ? dayNumber(query.dateTo) : Infinity;
    checks.push((doc) => p.day[doc] !== NO_DATE && p.day[doc] >= from && p.day[doc] <= to);
  }
  if (query.category) {
    const category = CATEGORIES.indexOf(query.category) + 1;
    checks.push((doc) => p.category[doc] === category);
  }
  if (query.language) {
    // A page of unknown language is kept: nothing says it is in another one. Where no page is
    // in another language (most indexes), nothing is checked page by page.
    const language = p.languageIds.get(primaryLanguage(query.language)) ?? -1;
    const passing = p.languagePages[0] + (language > 0 ? p.languagePages[language] : 0);
    if (passing < p.documents) checks.push((doc) => p.language[doc] === 0 || p.language[doc] === language);
  }
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return checks[0];
  return (doc) => checks.every((check) => check(doc));
}
