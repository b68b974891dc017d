export { categorize, type CategoryEvidence } from './categorize';
export { Crawler, type CrawledPage, type CrawlOptions, type CrawlResult } from './crawler';
export { FolderWatcher, frontMatter, listFiles, PSEUDO_ORIGIN, readFolder, readFolderFile } from './folder-source';
export type { IndexedDocument } from './document';
export { type IndexStats, LocalIndex, type LocalIndexOptions } from './local-index';
export { DEMO_CORPUS_DIR, LocalSearchProvider, type LocalSearchProviderOptions, type RefreshReport, type UpdateReport } from './local.search-provider';
export { type DocumentOverrides, type Extractor, type RawPage, toIndexedDocument } from './to-document';
