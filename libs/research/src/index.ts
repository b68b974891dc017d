export {
  runResearch,
  READ_BATCH,
  PASSAGE_CHARS,
  MAX_PASSAGES,
  type ResearchInput,
  type ResearchPorts,
  type ResearchProgress,
  type ResearchOutcome,
  type SearchHit,
  type ReadDocument,
} from './pipeline';
export {
  assertCitationsResolve,
  citedIndexes,
  claimSentences,
  uncitedClaims,
  GAP_NOTE,
  UnresolvedCitationError,
} from './citations';
export * from './research-model.port';
export {
  keepCitedClaims,
  oneLine,
  sourcesSection,
  stripInvalidCitations,
  type CitableSource,
} from './report-citations';
export { UrlMerge, type MergedHit, type MergeableHit } from './merge';
export * from './findall';
