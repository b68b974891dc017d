import { extractDocument } from '../extract-document';
import type { ExtractedDocument, ExtractOptions } from '../extraction.port';
import { DOCX_TYPE, extractDocx } from './docx';
import { extractPdf } from './pdf';

/** Whether a content type names a document read from its bytes (PDF, Word) rather than as text. */
export function isBinaryDocument(contentType: string | undefined): boolean {
  const type = (contentType ?? '').toLowerCase();
  return type === 'application/pdf' || type === DOCX_TYPE;
}

/**
 * Any document the service reads: a PDF or Word file from its bytes (base64 in `body` when
 * `options.encoding` says so), anything else as a page (`extractDocument`).
 */
export async function extractAny(body: string | Uint8Array, options: ExtractOptions): Promise<ExtractedDocument> {
  const type = (options.contentType ?? '').toLowerCase();
  if (isBinaryDocument(type)) {
    const bytes =
      typeof body === 'string' ? Buffer.from(body, options.encoding === 'base64' ? 'base64' : 'latin1') : body;
    return type === 'application/pdf'
      ? extractPdf(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), options.url, options.heapMb)
      : extractDocx(bytes, options.url, options.heapMb);
  }
  return extractDocument(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'), options);
}
