import * as zlib from 'node:zlib';
import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * Documents the tests make themselves (nothing checked in): PDFs with pdf-lib, a Word file with
 * the docx package, an encrypted PDF and a PNG written byte by byte.
 */

/** One fact per page of the multi-page PDF: each answerable from that page only. */
export const PDF_FACTS = [
  'The Vantor observatory opened its northern dome in 1987 after nine years of construction.',
  'Annual visitor numbers at Vantor reached 48,200 in the last reporting year, a record.',
  'The Vantor dome telescope has a primary mirror of 3.6 metres, ground in Jena.',
];

/** A PDF of three pages: a title and a heading on each, a paragraph, and a table on page 2; title, author and date in its metadata. */
export async function reportPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Vantor Observatory Annual Report');
  doc.setAuthor('Vantor Trust');
  doc.setCreationDate(new Date('2024-03-05T10:00:00Z'));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  PDF_FACTS.forEach((fact, i) => {
    const page = doc.addPage([612, 792]);
    page.drawText(`Section ${i + 1}: ${['History', 'Visitors', 'Instruments'][i]}`, {
      x: 60,
      y: 720,
      size: 22,
      font: bold,
    });
    // A paragraph over two lines, body size.
    const [first, second] = [fact.slice(0, fact.indexOf(' ', 40)), fact.slice(fact.indexOf(' ', 40) + 1)];
    page.drawText(first, { x: 60, y: 680, size: 11, font });
    page.drawText(second, { x: 60, y: 666, size: 11, font });
    if (i === 1) {
      const rows = [
        ['Quarter', 'Visitors', 'Tours'],
        ['Q1', '9,800', '120'],
        ['Q2', '14,100', '170'],
        ['Q3', '15,900', '210'],
      ];
      rows.forEach((row, r) =>
        row.forEach((cell, c) =>
          page.drawText(cell, { x: 60 + c * 140, y: 620 - r * 18, size: 11, font: r === 0 ? bold : font }),
        ),
      );
    }
  });
  return doc.save();
}

/** A PDF whose only page holds an image and no text (a scan). */
export async function imageOnlyPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const png = await doc.embedPng(grayPng(64, 64));
  doc.addPage([300, 300]).drawImage(png, { x: 20, y: 20, width: 260, height: 260 });
  return doc.save();
}

/** A small grey PNG, written out chunk by chunk. */
function grayPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PDF with a Standard security handler whose user password is not empty (its /U entry matches
 * no password we could try): readers must ask for the password. pdf-lib cannot encrypt, so the
 * file is written object by object with a correct cross-reference table.
 */
export function encryptedPdf(): Buffer {
  const hex = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => ((i * 37 + seed) % 256).toString(16).padStart(2, '0')).join('');
  const content = 'BT /F1 12 Tf 72 712 Td (Secret figures) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Filter /Standard /V 1 /R 2 /O <${hex(32, 11)}> /U <${hex(32, 99)}> /P -44 >>`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 5 0 R /ID [<${hex(16, 5)}> <${hex(16, 5)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The Word file's one fact (the task test asks for it). */
export const DOCX_FACT = { company: 'Quillmere Tools', founded: 1962, ceo: 'Adaeze Okonkwo-Reyes' };

/** A .docx with headings, a bulleted list, a table and a link. */
export async function factsDocx(): Promise<Buffer> {
  const doc = new Document({
    numbering: {
      config: [
        {
          reference: 'bullets',
          levels: [{ level: 0, format: LevelFormat.BULLET, text: '•', alignment: AlignmentType.LEFT }],
        },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: `${DOCX_FACT.company} company profile`, heading: HeadingLevel.HEADING_1 }),
          new Paragraph(
            `${DOCX_FACT.company} was founded in ${DOCX_FACT.founded} in Sheffield and makes hand tools for joiners and cabinet makers.`,
          ),
          new Paragraph({ text: 'Leadership', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({
            text: `${DOCX_FACT.ceo}, Chief Executive Officer`,
            numbering: { reference: 'bullets', level: 0 },
          }),
          new Paragraph({
            text: 'Tomas Lindqvist, Chief Financial Officer',
            numbering: { reference: 'bullets', level: 0 },
          }),
          new Paragraph({ text: 'Product lines', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Block planes', numbering: { reference: 'bullets', level: 0 } }),
          new Paragraph({ text: 'Marking gauges', numbering: { reference: 'bullets', level: 0 } }),
          new Paragraph({ text: 'Dovetail saws', numbering: { reference: 'bullets', level: 0 } }),
          new Table({
            rows: [
              ['Year', 'Revenue'],
              ['2022', '£41m'],
              ['2023', '£44m'],
            ].map(
              (cells) =>
                new TableRow({ children: cells.map((cell) => new TableCell({ children: [new Paragraph(cell)] })) }),
            ),
          }),
          new Paragraph({
            children: [
              new TextRun('See '),
              new ExternalHyperlink({
                link: 'https://quillmere.example/about',
                children: [new TextRun('our history')],
              }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/**
 * A .docx of `count` one-word paragraphs: a few KB of zip whose XML, the shape that costs its
 * reader the most heap a byte, inflates to about 60 bytes a paragraph. `understate`: its zip
 * directory declares the document's XML at 100 bytes.
 */
export async function paragraphsDocx(count: number, understate = false): Promise<Buffer> {
  const doc = new Document({
    sections: [{ children: Array.from({ length: count }, () => new Paragraph('word')) }],
  });
  const zip = await Packer.toBuffer(doc);
  if (!understate) return zip;
  // The central directory entry (PK\x01\x02) of word/document.xml: its uncompressed size at +24.
  const name = Buffer.from('word/document.xml');
  for (let at = zip.indexOf(CENTRAL_ENTRY); at >= 0; at = zip.indexOf(CENTRAL_ENTRY, at + 4)) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.subarray(at + 46, at + 46 + nameLength).equals(name)) zip.writeUInt32LE(100, at + 24);
  }
  return zip;
}
const CENTRAL_ENTRY = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/** A page whose text only its script writes (the words are not in the markup, even in the script's source). */
export const SCRIPTED_TEXT =
  'Harbour tide tables for Kessock are published every Monday at dawn by the pilots association';
export function scriptedPage(extraScript = ''): string {
  const reversed = SCRIPTED_TEXT.split('').reverse().join('');
  return `<!doctype html><html><head><title>Tides</title></head><body><div id="app"></div>
<script>
  const text = ${JSON.stringify(reversed)}.split('').reverse().join('');
  const app = document.getElementById('app');
  app.innerHTML = '<article><h1>Kessock tides</h1><p>' + text + '. ' + text + ' again, so the article reads long enough.</p></article>';
  ${extraScript}
</script></body></html>`;
}

/**
 * A PDF of one page whose content stream is `data` under the dictionary entries `dict` (its
 * `/Filter`, say), written object by object with a correct cross-reference table.
 */
export function pdfWithContentStream(dict: string, data: Buffer): Buffer {
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${data.length} ${dict} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const parts = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(
    Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

/**
 * A zlib stream (FlateDecode) that inflates to `mb` MiB of spaces after `head`: one deflated MiB
 * of spaces, flushed to a byte boundary, repeated (about 1 KB a MiB), then a final empty block
 * and the Adler-32 of the whole, worked out from its closed form. Made in milliseconds.
 */
export function inflatingTo(mb: number, head = ''): Buffer {
  const unit = zlib.deflateRawSync(Buffer.alloc(1024 * 1024, 0x20), {
    level: 9,
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  const first = zlib.deflateRawSync(Buffer.from(head, 'latin1'), { finishFlush: zlib.constants.Z_FULL_FLUSH });
  const M = 65521n;
  let [s1, s2] = [1n, 0n];
  for (const byte of Buffer.from(head, 'latin1')) {
    s1 = (s1 + BigInt(byte)) % M;
    s2 = (s2 + s1) % M;
  }
  // n more bytes of value c: s2 gains n*s1 + c*n(n+1)/2, s1 gains n*c.
  const [n, c] = [BigInt(mb) * 1024n * 1024n, 32n];
  s2 = (s2 + n * s1 + (c * n * (n + 1n)) / 2n) % M;
  s1 = (s1 + n * c) % M;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((s2 << 16n) | s1));
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    first,
    ...Array<Buffer>(mb).fill(unit),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/** A PDF decode bomb: about 4 MB of FlateDecode content stream that inflates to 4 GiB (a line of text, then spaces). */
export function decodeBombPdf(mb = 4096): Buffer {
  return pdfWithContentStream('/Filter /FlateDecode', inflatingTo(mb, 'BT /F1 12 Tf 72 712 Td (Bomb text) Tj ET\n'));
}
