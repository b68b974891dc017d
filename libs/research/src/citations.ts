import type { Source } from '@app/domain';
import { citedIndexes } from './report-citations';

// The grammar itself is in ./report-citations, which the research models (they write and repair
// reports) use too.
export { citedIndexes, claimSentences, uncitedClaims, GAP_NOTE } from './report-citations';

export class UnresolvedCitationError extends Error {
  constructor(readonly missing: number[]) {
    super(`the report cites sources that do not exist: ${missing.map((n) => `[${n}]`).join(', ')}`);
    this.name = 'UnresolvedCitationError';
  }
}

/** Throws UnresolvedCitationError when any `[N]` in the report is not a source index. */
export function assertCitationsResolve(report: string, sources: ReadonlyArray<Pick<Source, 'index'>>): void {
  const known = new Set(sources.map((s) => s.index));
  const missing = citedIndexes(report).filter((n) => !known.has(n));
  if (missing.length) throw new UnresolvedCitationError(missing);
}
