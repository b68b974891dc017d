/**
 * A deep run's parameters, their bounds and defaults (API spec: search request, deep only): the
 * gateway's field errors and the run's own invariants use these.
 */
export const DEEP_SEARCH_BOUNDS = {
  queries: { min: 1, max: 5 },
  limit: { min: 1, max: 100 },
  max_subqueries: { min: 1, max: 12, default: 8 },
  max_fetches: { min: 1, max: 30, default: 18 },
} as const;
