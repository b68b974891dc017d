import { DOCX_TYPE, documentKind, PDF_TYPE, sniffDocument } from './document-type';

describe('document detection', () => {
  const zipWith = (name: string) =>
    Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from(name)]);

  it('knows a PDF and a Word file by their bytes, whatever they were served as', () => {
    expect(sniffDocument(Buffer.from('%PDF-1.7\n...'))).toBe(PDF_TYPE);
    expect(sniffDocument(Buffer.from('\n  %PDF-1.4'))).toBe(PDF_TYPE);
    expect(documentKind('application/octet-stream', Buffer.from('junk before %PDF-1.4'))).toBe(PDF_TYPE);
    expect(sniffDocument(zipWith('word/document.xml'))).toBe(DOCX_TYPE);
    expect(sniffDocument(zipWith('xl/workbook.xml'))).toBeNull();
    // A page that mentions the header is still a page.
    expect(sniffDocument(Buffer.from('<html><p>A PDF starts with %PDF-1.7</p>'))).toBeNull();
    expect(documentKind('text/html', Buffer.from('<html><p>A PDF starts with %PDF-1.7</p>'))).toBeNull();
    expect(documentKind('text/html', Buffer.from('%PDF-1.7'))).toBe(PDF_TYPE);
  });

  it('trusts a document type with unrecognised bytes (the reader then says what is wrong), and nothing else', () => {
    expect(documentKind('application/pdf', Buffer.from('truncated'))).toBe(PDF_TYPE);
    expect(documentKind(DOCX_TYPE, Buffer.from('truncated'))).toBe(DOCX_TYPE);
    expect(documentKind('application/octet-stream', Buffer.from('MZ'))).toBeNull();
    expect(documentKind('text/plain', Buffer.from('hello'))).toBeNull();
  });
});
