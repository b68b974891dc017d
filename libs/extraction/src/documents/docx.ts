import mammoth from 'mammoth';
import { detectLanguage } from '../language';
import type { ExtractedDocument } from '../extraction.port';
import { DocumentUnreadable } from './document-error';
import { renderFragment } from './fragment';
import { DEFAULT_HEAP_MB } from '../markup';
import { checkWordXml, checkZipBounds, WORD_XML_BYTES_PER_HEAP_MB } from './zip-bounds';

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * A Word (.docx) file as markdown, text and HTML: mammoth turns its headings, lists, tables and
 * links into HTML, which the page renderers then read. The zip's bounds are checked first, and its
 * XML, inflated, against what the thread's heap (`heapMb`) can parse.
 */
export async function extractDocx(
  bytes: Uint8Array,
  url: string,
  heapMb = DEFAULT_HEAP_MB,
): Promise<ExtractedDocument> {
  checkZipBounds(bytes);
  checkWordXml(bytes, Math.floor(heapMb * WORD_XML_BYTES_PER_HEAP_MB));
  let html: string;
  try {
    html = (
      await mammoth.convertToHtml(
        { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
        // An image is kept as its alt text: its bytes (base64 in the HTML by default) are not read.
        { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
      )
    ).value;
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
