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
export { assertCitationsResolve, citedIndexes, claimSentences, uncitedClaims, GAP_NOTE, UnresolvedCitationError } from './citations';
export { normalizeUrl, domainOf, onDomain } from './urls';
export { UrlMerge, type MergedHit, type MergeableHit } from './merge';
export type { ResearchModel, ResearchPassage, ResearchSourceRef } from '@app/providers/llm/research/research-model.port';
export * from './findall';
