export { Crawler, type CrawledPage, type CrawlOptions, type CrawlResult } from './crawler';
export {
  LocalSearchProvider,
  type LocalSearchProviderOptions,
  type RefreshReport,
  SEARCH_THREAD_RESTARTS,
  type SearchThreadReport,
  type UpdateReport,
} from './local.search-provider';
export type { Extractor } from './to-document';
export { mergePages, TeamIndexes, type TeamIndexesOptions, type TeamPageRef, type TeamPageText } from './team-indexes';
