/** Documents read from their bytes (by the extraction library), not decoded as text. */
export const PDF_TYPE = 'application/pdf';
export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Media types whose body may be a PDF or a Word file: read, then told apart by their first bytes. */
export const DOCUMENT_TYPES = new Set([
  PDF_TYPE,
  'application/x-pdf',
  DOCX_TYPE,
  'application/octet-stream',
  'binary/octet-stream',
  'application/zip',
  'application/x-zip-compressed',
  'application/download',
  'application/x-download',
  'application/force-download',
]);

/**
 * A PDF (`%PDF-` first, after any whitespace) or a Word file (a zip, `PK\x03\x04`, holding
 * `word/document.xml`) by its bytes, whatever the server called it; else null.
 */
export function sniffDocument(bytes: Buffer): typeof PDF_TYPE | typeof DOCX_TYPE | null {
  if (
    /^(?:\ufeff)?\s{0,64}%PDF-/.test(
      bytes
        .subarray(0, 80)
        .toString('latin1')
        .replace(/^\xef\xbb\xbf/, ''),
    )
  )
    return PDF_TYPE;
  if (bytes.length > 4 && bytes.readUInt32LE(0) === 0x04034b50 && bytes.includes('word/document.xml', 0, 'latin1'))
    return DOCX_TYPE;
  return null;
}

/** What a fetched body is read as: its sniffed kind, else the document type it was served as, else null (a text type, or unknown bytes). */
export function documentKind(mediaType: string, bytes: Buffer): typeof PDF_TYPE | typeof DOCX_TYPE | null {
  const sniffed = sniffDocument(bytes);
  if (sniffed) return sniffed;
  // Served as bytes: a PDF header anywhere in the first KiB counts, as readers accept.
  if (DOCUMENT_TYPES.has(mediaType) && bytes.subarray(0, 1024).includes('%PDF-')) return PDF_TYPE;
  if (mediaType === PDF_TYPE || mediaType === 'application/x-pdf') return PDF_TYPE;
  if (mediaType === DOCX_TYPE) return DOCX_TYPE;
  return null;
}
