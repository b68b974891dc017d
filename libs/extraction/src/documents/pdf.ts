import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { detectLanguage } from '../language';
import { DEFAULT_HEAP_MB } from '../markup';
import type { ExtractedDocument } from '../extraction.port';
import { DocumentUnreadable } from './document-error';
import { importEsm } from './esm';
import { checkPdfDecodedSize } from './pdf-bounds';
import { renderFragment } from './fragment';
import { bodySize, linesOf, pageHtml, type TextRun } from './pdf-layout';

/** Pages read from one PDF; the rest are left out (a page count still says how many there are). */
export const MAX_PDF_PAGES = 300;
/** Characters of text kept from one PDF; reading stops at the page that passes it. */
export const MAX_PDF_CHARS = 2_000_000;

/**
 * Text runs read from one PDF, per MB of heap the reading thread may hold. A 100 KB file of two
 * million runs a few points apart needed more than a 512 MB thread, where V8 may fail the whole
 * process rather than the thread; at 200 a MB (102,400 at 512 MB) the worst such file reads in a
 * 192 MB thread. A dense page has a few hundred runs; reading stops at the page that passes it.
 */
export const PDF_RUNS_PER_HEAP_MB = 200;

export const NO_TEXT = 'no extractable text (image-only or scanned PDF)';

interface PdfPage {
  /** The page's text in chunks of runs, as PDF.js reads its content stream. */
  streamTextContent(): ReadableStream<{ items: Array<TextRun | { type: string }> }>;
  cleanup(): void;
}
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getMetadata(): Promise<{ info?: Record<string, unknown> }>;
  destroy(): Promise<void>;
}
interface PdfJs {
  getDocument(params: Record<string, unknown>): { promise: Promise<PdfDocument>; destroy(): Promise<void> };
}

let pdfjs: Promise<PdfJs> | null = null;
/** PDF.js's build for Node (the legacy one), loaded once per thread on the first PDF. */
function loadPdfJs(): Promise<PdfJs> {
  const entry = createRequire(__filename).resolve('pdfjs-dist/legacy/build/pdf.mjs');
  pdfjs ??= importEsm<PdfJs>(pathToFileURL(entry).href);
  return pdfjs;
}

/** A PDF's text page by page, with the offset in `text` where each page starts. */
export interface PdfDocumentText extends ExtractedDocument {
  pages: number;
  pageStarts: number[];
}

/**
 * A PDF's text in reading order, page by page: headings, paragraphs and table rows told apart by
 * the layout (font size, vertical gaps, runs sharing a baseline), the title, author and date from
 * its metadata. Fonts are never loaded or rendered and nothing is fetched (no font face, no
 * embedded scripts, no range requests). Runs on an extraction thread, under its deadline.
 */
export async function extractPdf(bytes: Uint8Array, url: string, heapMb = DEFAULT_HEAP_MB): Promise<PdfDocumentText> {
  // PDF.js decodes streams outside the thread's heap: a decode bomb is refused before it starts.
  await checkPdfDecodedSize(bytes);
  const lib = await loadPdfJs();
  const standardFontDataUrl = `${path.join(path.dirname(createRequire(__filename).resolve('pdfjs-dist/package.json')), 'standard_fonts')}${path.sep}`;
  const task = lib.getDocument({
    data: bytes,
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
    useWorkerFetch: false,
    stopAtErrors: false,
    standardFontDataUrl,
    verbosity: 0,
  });
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'PasswordException')
      throw new DocumentUnreadable('the PDF is encrypted (password-protected) and cannot be read');
    throw new DocumentUnreadable(`not a readable PDF (${(error as Error)?.message ?? 'parse error'})`);
  }
  try {
    const pageLines = [];
    let chars = 0;
    let runs = Math.floor(heapMb * PDF_RUNS_PER_HEAP_MB);
    let pageError: string | null = null;
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PDF_PAGES) && chars < MAX_PDF_CHARS && runs > 0; n++) {
      // A damaged page is left out; the others are still read.
      const items = await doc.getPage(n).then(
        async (page) => {
          const read = await readRuns(page, runs);
          page.cleanup();
          return read;
        },
        (error: unknown) => {
          pageError ??= (error as Error)?.message ?? 'damaged page';
          return [] as TextRun[];
        },
      );
      runs -= items.length;
      const lines = linesOf(items);
      chars += lines.reduce((sum, l) => sum + l.cells.reduce((s, c) => s + c.text.length, 0), 0);
      pageLines.push(lines);
    }
    if (chars === 0) throw new DocumentUnreadable(pageError ? `not a readable PDF (${pageError})` : NO_TEXT);
    const body = bodySize(pageLines);
    const rendered = pageLines.map((lines) => renderFragment(pageHtml(lines, body), url));
    const pageStarts: number[] = [];
    let text = '';
    for (const page of rendered) {
      if (text) text += '\n\n';
      pageStarts.push(text.length);
      text += page.text;
    }
    const info: Record<string, unknown> = (await doc.getMetadata().catch(() => ({ info: {} }))).info ?? {};
    const title = metaString(info.Title) ?? firstHeading(rendered.map((p) => p.markdown).join('\n\n'));
    const language = metaString(info.Language)?.toLowerCase().split('-')[0] ?? detectLanguage(text)?.lang ?? null;
    return {
      title,
      markdown: rendered.map((p) => p.markdown).join('\n\n'),
      text,
      html: rendered.map((p) => p.html).join('\n'),
      publishedDate: pdfDate(metaString(info.CreationDate)) ?? pdfDate(metaString(info.ModDate)),
      author: metaString(info.Author),
      language,
      canonicalUrl: null,
      description: metaString(info.Subject) ?? firstSentence(text, title),
      schemaTypes: [],
      contentType: 'application/pdf',
      pages: doc.numPages,
      pageStarts,
    };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/**
 * The page's text runs, at most `max`: those past it are dropped as PDF.js streams them (it
 * reads on to the stream's end, under the document's deadline; a stream cancelled midway left
 * the document waiting).
 */
async function readRuns(page: PdfPage, max: number): Promise<TextRun[]> {
  const runs: TextRun[] = [];
  const reader = page.streamTextContent().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return runs;
    for (const item of value.items) if ('str' in item && runs.length < max) runs.push(item);
  }
}

const metaString = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() ? v.replace(/\s+/g, ' ').trim().slice(0, 500) : null;

/** `D:YYYYMMDDHHmmSS...` (PDF date strings) to `YYYY-MM-DD`. */
export function pdfDate(raw: string | null): string | null {
  const m = raw ? /^(?:D:)?(\d{4})(\d{2})?(\d{2})?/.exec(raw) : null;
  if (!m) return null;
  const [year, month = '01', day = '01'] = [m[1]!, m[2], m[3]];
  const date = `${year}-${month}-${day}`;
  return Number.isNaN(Date.parse(date)) || Number(year) < 1900 ? null : date;
}

function firstHeading(markdown: string): string | null {
  const m = /^#{1,6}\s+(.+)$/m.exec(markdown);
  return m ? m[1]!.trim() : null;
}

function firstSentence(text: string, title: string | null): string | null {
  const para = text
    .split(/\n+/)
    .map((p) => p.trim())
    .find((p) => p.length >= 50 && p !== title);
  return para ? para.slice(0, 300) : null;
}

/** The page (1-based) that holds character `offset` of a PDF's text. */
export function pageAt(pageStarts: readonly number[], offset: number): number {
  let page = 1;
  for (let i = 0; i < pageStarts.length; i++) if (pageStarts[i]! <= offset) page = i + 1;
  return page;
}
