/**
 * A search's filters (domains to include or exclude, a date window from freshness and the source
 * policy), and the part of them applied here to the hits when the provider cannot apply it itself.
 */
import type { SearchRequest } from '@app/contracts';
import { FRESHNESS_WINDOW_MS } from '@app/domain';
import type { SearchCapabilities, SearchHit } from '@app/providers';
import { domainOf, onDomain } from '@app/urls';

export interface Filters {
  include: string[];
  exclude: string[];
  after?: string;
  before?: string;
}

/** The request's fields the post-filter reads. */
export type FilterShape = Pick<SearchRequest, 'limit' | 'country' | 'language' | 'category' | 'freshness'>;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function searchFilters(
  request: Pick<SearchRequest, 'include_domains' | 'exclude_domains' | 'freshness' | 'advanced_settings'>,
): Filters {
  const policy = request.advanced_settings?.source_policy;
  const include = [...(request.include_domains ?? []), ...(policy?.include_domains ?? [])];
  const exclude = [...(request.exclude_domains ?? []), ...(policy?.exclude_domains ?? [])];
  let after = policy?.after_date ?? undefined;
  if (request.freshness) {
    const since = isoDay(Date.now() - FRESHNESS_WINDOW_MS[request.freshness]);
    if (!after || since > after) after = since;
  }
  return { include, exclude, after, before: policy?.before_date ?? undefined };
}

/** The filters the provider could not apply itself. */
export function postFilter(
  caps: SearchCapabilities,
  hits: SearchHit[],
  request: FilterShape,
  filters: Filters,
  warnings: string[],
): SearchHit[] {
  let kept = hits;
  if (caps.domainFilter === 'none' && (filters.include.length || filters.exclude.length)) {
    kept = kept.filter((hit) => {
      const host = domainOf(hit.url);
      return (
        (!filters.include.length || filters.include.some((d) => onDomain(host, d))) &&
        !filters.exclude.some((d) => onDomain(host, d))
      );
    });
  }
  if (caps.category === 'none' && request.category) kept = kept.filter((hit) => hit.category === request.category);
  const datesPostFiltered =
    (request.freshness && caps.freshness === 'none') ||
    ((filters.after || filters.before) && caps.dateRange === 'none');
  if (datesPostFiltered && (filters.after || filters.before)) {
    const undated = kept.filter((hit) => !hit.date).length;
    kept = kept.filter(
      (hit) =>
        hit.date && (!filters.after || hit.date >= filters.after) && (!filters.before || hit.date <= filters.before),
    );
    if (undated > 0)
      warnings.push(`date filter: ${undated} result${undated === 1 ? '' : 's'} without a known date left out`);
  }
  if (caps.language === 'none' && request.language) {
    kept = kept.filter((hit) => !hit.language || hit.language.split('-')[0] === request.language.split('-')[0]);
  }
  return kept;
}
