export * from './extraction.port';
export { extractDocument } from './extract-document';
export { focusExcerpts } from './excerpts';
export { cutAtWord, ExcerptBudget } from './excerpt-budget';
export { ExtractionAbandoned, ExtractionWorkers, type ExtractionWorkersOptions } from './extraction-workers';
export { looksLikeHtml, stripComments, stripTags } from './markup';
export { pageLinks, type PageLink, type PageLinks } from './html/links';
export { parseSitemap, type Sitemap, type SitemapEntry } from './sitemap';
