export * from './extraction.port';
export { extractDocument } from './extract-document';
export { focusExcerpts } from './excerpts';
export { cutAtWord, ExcerptBudget } from './excerpt-budget';
