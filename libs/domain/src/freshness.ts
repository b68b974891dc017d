/** The search `freshness` filter (API spec: search request): how recent a result's date must be. */
export const FRESHNESS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type Freshness = (typeof FRESHNESS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Each window's length, counted back from now. Calendar-free, the same for every provider and
 * the search service's own filter: a month is 30 days, a year 365.
 */
export const FRESHNESS_WINDOW_MS: Readonly<Record<Freshness, number>> = {
  hour: HOUR_MS,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
};

/** The first instant inside the window. */
export const freshnessStart = (freshness: Freshness, now: Date): Date =>
  new Date(now.getTime() - FRESHNESS_WINDOW_MS[freshness]);
