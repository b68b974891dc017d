import mammoth from 'mammoth';
import { detectLanguage } from '../language';
import type { ExtractedDocument } from '../extraction.port';
import { DocumentUnreadable } from './document-error';
import { renderFragment } from './fragment';
import { checkZipBounds } from './zip-bounds';

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * A Word (.docx) file as markdown, text and HTML: mammoth turns its headings, lists, tables and
 * links into HTML, which the page renderers then read. The zip's bounds are checked first.
 */
export async function extractDocx(bytes: Uint8Array, url: string): Promise<ExtractedDocument> {
  checkZipBounds(bytes);
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }))
      .value;
  } catch (error) {
    throw new DocumentUnreadable(`not a readable Word document (${(error as Error)?.message ?? 'parse error'})`);
  }
  const rendered = renderFragment(html, url);
  const title =
    /^#{1,6}\s+(.+)$/m.exec(rendered.markdown)?.[1]?.trim() ??
    rendered.text
      .split('\n')
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 200) ??
    null;
  const description =
    rendered.text
      .split(/\n+/)
      .map((p) => p.trim())
      .find((p) => p.length >= 50 && p !== title)
      ?.slice(0, 300) ?? null;
  return {
    title,
    ...rendered,
    publishedDate: null,
    author: null,
    language: detectLanguage(rendered.text)?.lang ?? null,
    canonicalUrl: null,
    description,
    schemaTypes: [],
    contentType: DOCX_TYPE,
  };
}
