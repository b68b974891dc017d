/**
 * Main-content extraction from an HTML (or text/markdown) document: what `/v1/extract`, the
 * local search index and the research pipeline read from a page.
 */
export type ExtractFormat = 'markdown' | 'text' | 'html';

export interface ExtractedDocument {
  title: string | null;
  /** Main content (navigation, footers, cookie banners and ads removed) as markdown. */
  markdown: string;
  /** The same content as plain text. */
  text: string;
  /** The same content as cleaned HTML. */
  html: string;
  /** `YYYY-MM-DD` from meta tags, JSON-LD or `<time>`, or null. */
  publishedDate: string | null;
  author: string | null;
  /** Language code (e.g. `en`) from the document or detected, or null. */
  language: string | null;
  canonicalUrl: string | null;
  /** A short description (meta description or the first paragraph). */
  description: string | null;
  /** JSON-LD `@type` values found, e.g. `NewsArticle`, `Organization`. */
  schemaTypes: string[];
  /** What the document was read as when not a web page: `application/pdf`, or the Word (.docx) type. */
  contentType?: string;
  /** A PDF's page count. */
  pages?: number;
  /** A PDF's page starts: offset in `text` of each page's first character (page 1 at 0). */
  pageStarts?: number[];
}

export interface ExtractOptions {
  /** The document's URL: resolves relative links and the canonical URL. */
  url: string;
  /** `text/html` (default), `text/plain`, `text/markdown`, `application/pdf` or the Word (.docx) type. */
  contentType?: string;
  /** `base64`: the body is the document's bytes in base64 (PDF and Word files). */
  encoding?: 'base64';
  /**
   * The heap (MB) the reading thread may hold (default 512), which bounds what is parsed: an HTML
   * page's tree (TREE_TAGS_PER_HEAP_MB; a page with more tags is read as its words) and a Word
   * file's XML (WORD_XML_BYTES_PER_HEAP_MB; a file with more is refused).
   */
  heapMb?: number;
}
