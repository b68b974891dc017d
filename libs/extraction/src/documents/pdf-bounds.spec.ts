import * as zlib from 'node:zlib';
import {
  decodeBombPdf,
  encryptedPdf,
  imageOnlyPdf,
  inflatingTo,
  pdfWithContentStream,
  reportPdf,
} from '../../../../test/support/documents';
import { DocumentUnreadable } from './document-error';
import { checkPdfDecodedSize, pdfStreams } from './pdf-bounds';

const MB = 1024 * 1024;
const refused = (bytes: Uint8Array, maxMb?: number) =>
  expect(checkPdfDecodedSize(bytes, maxMb)).rejects.toThrow(
    new DocumentUnreadable(`the document decodes to more than ${maxMb ?? 256} MB`),
  );

/** LZW as PDF writes it (early change), for a run of one byte value: codes for ever longer runs. */
function lzwRun(byte: number, length: number): Buffer {
  const codes: number[] = [256];
  let next = 258;
  let run = 1;
  let written = 0;
  let previousLength = 0;
  while (written < length && next < 4095) {
    // The code for a run of `run` bytes: the byte itself, or the entry made `run - 1` steps after 258.
    codes.push(run === 1 ? byte : 258 + run - 2);
    written += run;
    if (previousLength) next++;
    previousLength = run;
    run++;
  }
  codes.push(257);
  let bits = 0;
  let width = 0;
  let size = 9;
  const out: number[] = [];
  let entries = 258;
  codes.forEach((code, i) => {
    bits = (bits << size) | code;
    width += size;
    while (width >= 8) {
      out.push((bits >>> (width - 8)) & 0xff);
      width -= 8;
    }
    bits &= (1 << width) - 1;
    if (code === 256) {
      entries = 258;
      size = 9;
    } else if (i > 1) {
      entries++;
      size = entries + 1 >= 2048 ? 12 : entries + 1 >= 1024 ? 11 : entries + 1 >= 512 ? 10 : 9;
    }
  });
  if (width > 0) out.push((bits << (8 - width)) & 0xff);
  return Buffer.from(out);
}

describe('checkPdfDecodedSize (a PDF decode bomb refused before PDF.js reads it)', () => {
  it('lets ordinary PDFs through: text, an image, an encrypted one', async () => {
    for (const pdf of [await reportPdf(), await imageOnlyPdf(), encryptedPdf()])
      await expect(checkPdfDecodedSize(pdf)).resolves.toBeUndefined();
  });

  it('refuses a few MB of FlateDecode that inflates to 4 GB, quickly and without holding what it inflates', async () => {
    const bomb = decodeBombPdf();
    expect(bomb.length).toBeLessThan(5 * MB);
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    await refused(bomb);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(128 * MB);
    // Inflating gigabytes to count them is CPU work: a loaded machine may take more than jest's default 5 s.
  }, 30_000);

  it('counts every stream of a file, and every stage of a chain of filters', async () => {
    // Under the bound: read. 40 MB is under 64.
    await expect(
      checkPdfDecodedSize(pdfWithContentStream('/Filter /FlateDecode', inflatingTo(40)), 64),
    ).resolves.toBeUndefined();
    await refused(pdfWithContentStream('/Filter /FlateDecode', inflatingTo(70)), 64);
    // Flate inside Flate: 100 KB outside, 300 MB inside.
    const twice = zlib.deflateSync(inflatingTo(300));
    await refused(pdfWithContentStream('/Filter [/FlateDecode /FlateDecode]', twice));
    // ASCII85 and ASCIIHex before Flate, names written with # escapes, an abbreviated name.
    const hex = Buffer.from(`${inflatingTo(300).toString('hex')}>`);
    await refused(pdfWithContentStream('/Filter [/ASCIIHexDecode /Fl#61teDecode]', hex));
    await refused(pdfWithContentStream('/Filter [/AHx /Fl]', hex));
    // RunLength: 2 bytes for every 128; LZW: codes for ever longer runs.
    const runs = Buffer.concat([Buffer.alloc(400_000, Buffer.from([0x81, 0x20])), Buffer.from([128])]);
    await refused(pdfWithContentStream('/Filter /RunLengthDecode', runs), 16);
    const lzw = lzwRun(0x20, 4_000_000);
    await refused(pdfWithContentStream('/Filter /LZWDecode', Buffer.concat(Array<Buffer>(8).fill(lzw))), 1);
  }, 30_000);

  it('reads a stream as PDF.js does: by /Length when endstream follows it (an endstream inside the data does not end it), a filter by reference', async () => {
    // A stored deflate block holding the word "endstream", then the bomb.
    const stored = Buffer.from('\nendstream\n');
    const block = Buffer.concat([
      Buffer.from([
        0x00,
        stored.length & 0xff,
        stored.length >> 8,
        ~stored.length & 0xff,
        (~stored.length >> 8) & 0xff,
      ]),
      stored,
    ]);
    const bomb = inflatingTo(300);
    const tricky = Buffer.concat([bomb.subarray(0, 2), block, bomb.subarray(2)]);
    const pdf = pdfWithContentStream('/Filter /FlateDecode', tricky);
    expect([...pdfStreams(pdf.toString('latin1'))].map((s) => s.end - s.start)).toEqual([tricky.length]);
    await refused(pdf);
    // The filter and the length given as references to objects written out elsewhere.
    const byReference = Buffer.concat([
      pdfWithContentStream('/Filter 6 0 R', inflatingTo(300)).subarray(0, -6),
      Buffer.from('6 0 obj\n/FlateDecode\nendobj\n%%EOF\n'),
    ]);
    await refused(byReference);
    // A filter that cannot be resolved is tried as Flate.
    await refused(pdfWithContentStream('/Filter 9 0 R', inflatingTo(300)));
  }, 30_000);

  it('does not count image filters, nor data that does not decode', async () => {
    await expect(
      checkPdfDecodedSize(pdfWithContentStream('/Filter /DCTDecode', inflatingTo(300))),
    ).resolves.toBeUndefined();
    await expect(
      checkPdfDecodedSize(pdfWithContentStream('/Filter /FlateDecode', Buffer.alloc(100_000, 7))),
    ).resolves.toBeUndefined();
  });
});
