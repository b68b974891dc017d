import * as path from 'node:path';
import * as zlib from 'node:zlib';
import {
  decodeBombPdf,
  encryptedPdf,
  factsDocx,
  imageOnlyPdf,
  inflatingTo,
  paragraphsDocx,
  pdfWithContentStream,
  PDF_FACTS,
  reportPdf,
} from '../../support/documents';

/**
 * PDF and Word files read on the compiled extraction threads (dist/: PDF.js is an ES module the
 * threads load; from jest's TypeScript sources there is no worker script), with the documents made
 * here: a three-page PDF with a table and metadata, an image-only one, an encrypted one, a .docx
 * with headings, a list and a table; then hostile ones (truncated, deeply nested, huge, a zip
 * bomb) each answered within its deadline, the threads reading on afterwards.
 */
const DIST = path.resolve(__dirname, '..', '..', '..', 'dist', 'libs', 'extraction', 'src', 'index.js');
const lib = require(DIST) as typeof import('../../../libs/extraction/src');

jest.setTimeout(120_000);

const PDF = 'application/pdf';
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('documents on the extraction threads (compiled)', () => {
  const workers = new lib.ExtractionWorkers({ timeoutMs: 2_000, documentTimeoutMs: 10_000, size: 1, maxHeapMb: 256 });
  afterAll(() => workers.close());
  const read = (bytes: Uint8Array, contentType: string) =>
    workers.extract(base64(bytes), { url: 'http://docs.test/file', contentType, encoding: 'base64' });

  it('reads a PDF page by page: headings apart from paragraphs, the table as rows, title, author, date and page count from its metadata', async () => {
    const doc = await read(await reportPdf(), PDF);
    expect(doc).toMatchObject({
      title: 'Vantor Observatory Annual Report',
      author: 'Vantor Trust',
      publishedDate: '2024-03-05',
      pages: 3,
      contentType: PDF,
    });
    expect(doc.markdown).toMatch(/^## Section 1: History$/m);
    // A paragraph drawn over two lines is one paragraph.
    expect(doc.markdown).toContain(PDF_FACTS[0]);
    expect(doc.markdown).toMatch(/^\| Quarter \| Visitors \| Tours \|$/m);
    expect(doc.markdown).toMatch(/^\| Q2 \| 14,100 \| 170 \|$/m);
    expect(doc.html).toContain('<table>');
    // Each page's text starts where pageStarts says, in page order.
    expect(doc.pageStarts).toHaveLength(3);
    PDF_FACTS.forEach((fact, i) => {
      const at = doc.text.indexOf(fact);
      expect(at).toBeGreaterThanOrEqual(doc.pageStarts![i]!);
      expect(lib.pageAt(doc.pageStarts!, at)).toBe(i + 1);
    });
  });

  it('says an image-only PDF has no extractable text, and an encrypted one that it is encrypted', async () => {
    await expect(read(await imageOnlyPdf(), PDF)).rejects.toThrow(
      new lib.DocumentUnreadable('no extractable text (image-only or scanned PDF)'),
    );
    await expect(read(encryptedPdf(), PDF)).rejects.toThrow(/encrypted/);
    await expect(read(encryptedPdf(), PDF)).rejects.toBeInstanceOf(lib.DocumentUnreadable);
  });

  it('reads a Word file as markdown: headings, the list, the table and the link', async () => {
    const doc = await read(await factsDocx(), lib.DOCX_TYPE);
    expect(doc.title).toBe('Quillmere Tools company profile');
    expect(doc.markdown).toMatch(/^# Quillmere Tools company profile$/m);
    expect(doc.markdown).toMatch(/^## Leadership$/m);
    expect(doc.markdown).toMatch(/^[-*] Marking gauges$/m);
    expect(doc.markdown).toMatch(/^\| 2023 \| £44m \|$/m);
    expect(doc.markdown).toContain('[our history](https://quillmere.example/about)');
    expect(doc.text).toContain('Adaeze Okonkwo-Reyes');
  });

  it('answers truncated, deeply nested and huge PDFs and a zip bomb with an error within the deadline, and reads on', async () => {
    const whole = Buffer.from(await reportPdf());
    const truncated = whole.subarray(0, Math.floor(whole.length / 3));
    const nested = Buffer.from(
      `%PDF-1.4\n1 0 obj\n${'['.repeat(200_000)}${']'.repeat(200_000)}\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
      'latin1',
    );
    const huge = Buffer.from(
      `%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Count 1000000 /Kids [${'3 0 R '.repeat(300_000)}] >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
      'latin1',
    );
    for (const bytes of [truncated, nested, huge]) {
      const started = performance.now();
      const outcome = await read(bytes, PDF).then(
        (doc) => doc,
        (error: Error) => error,
      );
      expect(performance.now() - started).toBeLessThan(11_000);
      // Whatever a damaged file still holds may be read; otherwise a clear error.
      if (outcome instanceof Error)
        expect(outcome.message).toMatch(/PDF|no extractable text|took longer|needs more than/);
    }
    await expect(read(zipBomb(), lib.DOCX_TYPE)).rejects.toThrow(/inflates to more than 64 MB|holds \d+ files/);
    expect((await read(await reportPdf(), PDF)).pages).toBe(3);
  });

  it('refuses a Word file whose XML, inflated, is more than its thread can parse (4 KB a MB of heap), also when its zip directory understates it, and reads the next', async () => {
    // 1 MB of XML at 256 MB of heap: some 20,000 paragraphs of 60 bytes are read, 40,000 are not.
    const within = await read(await paragraphsDocx(12_000), lib.DOCX_TYPE);
    expect(within.text.match(/word/g)).toHaveLength(12_000);
    for (const understate of [false, true]) {
      const bomb = await paragraphsDocx(40_000, understate);
      expect(bomb.length).toBeLessThan(100_000);
      await expect(read(bomb, lib.DOCX_TYPE)).rejects.toThrow(
        new lib.DocumentUnreadable(
          "the Word document's text is more than 1.0 MB of XML once inflated (EXTRACT_MAX_HEAP_MB bounds it)",
        ),
      );
    }
    expect((await read(await factsDocx(), lib.DOCX_TYPE)).title).toBe('Quillmere Tools company profile');
  });

  it('reads at most 200 text runs a MB of heap from a PDF (a 15 KB file of 300,000 runs a few points apart), and reads the next', async () => {
    const ops = '(ab) Tj 0 30 Td (cd) Tj 0 -30 Td '.repeat(150_000);
    const bomb = pdfWithContentStream(
      '/Filter /FlateDecode',
      zlib.deflateSync(Buffer.from(`BT /F1 12 Tf 72 400 Td ${ops}ET`)),
    );
    expect(bomb.length).toBeLessThan(20_000);
    const doc = await read(bomb, PDF);
    // 256 MB of heap: 51,200 runs kept of the 300,000.
    expect(doc.text.match(/ab|cd/g)).toHaveLength(51_200);
    expect((await read(await reportPdf(), PDF)).pages).toBe(3);
  });

  /** The process's largest rss above what it was, sampled every 20 ms until stopped. */
  const watchRss = () => {
    const base = process.memoryUsage().rss;
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - base)), 20);
    return () => {
      clearInterval(timer);
      return peak;
    };
  };

  it('refuses a PDF decode bomb (4 MB of FlateDecode inflating to 4 GB) as that document’s error within the deadline, the process’s memory flat meanwhile, and reads the next PDF', async () => {
    const stop = watchRss();
    const started = performance.now();
    const outcome = await read(decodeBombPdf(), PDF).then(
      (doc) => doc,
      (error: Error) => error,
    );
    const elapsed = performance.now() - started;
    const grown = stop();
    expect(outcome).toEqual(new lib.DocumentUnreadable('the document decodes to more than 256 MB'));
    expect(elapsed).toBeLessThan(5_000);
    expect(grown).toBeLessThan(256 * 1024 * 1024);
    expect((await read(await reportPdf(), PDF)).pages).toBe(3);
  });

  it('gives up a document whose buffers pass the thread’s bound (decoding under the stream bound, over the thread’s) and reads the next on a fresh thread', async () => {
    const cramped = new lib.ExtractionWorkers({ timeoutMs: 2_000, documentTimeoutMs: 60_000, size: 1, maxHeapMb: 64 });
    try {
      const bomb = pdfWithContentStream(
        '/Filter /FlateDecode',
        inflatingTo(240, 'BT /F1 12 Tf 72 712 Td (Bomb text) Tj ET\n'),
      );
      const stop = watchRss();
      const outcome = await cramped
        .extract(base64(bomb), { url: 'http://docs.test/bomb', contentType: PDF, encoding: 'base64' })
        .then(
          (doc) => doc,
          (error: Error) => error,
        );
      const grown = stop();
      expect(outcome).toEqual(new lib.ExtractionAbandoned('the document needs more than 64 MB to extract'));
      expect(grown).toBeLessThan(512 * 1024 * 1024);
      expect(
        (
          await cramped.extract(base64(await reportPdf()), {
            url: 'http://docs.test/file',
            contentType: PDF,
            encoding: 'base64',
          })
        ).title,
      ).toBe('Vantor Observatory Annual Report');
    } finally {
      await cramped.close();
    }
  });
});

/** A zip whose directory declares 40 entries of 4 GB each (nothing else in it is read). */
function zipBomb(): Buffer {
  const name = Buffer.from('word/document.xml');
  const central: Buffer[] = [];
  for (let i = 0; i < 40; i++) {
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt32LE(0xfffffffe, 24);
    entry.writeUInt16LE(name.length, 28);
    central.push(entry, name);
  }
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(40, 8);
  end.writeUInt16LE(40, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(local.length + name.length, 16);
  return Buffer.concat([local, name, directory, end]);
}
