import { inflateRawSync } from 'node:zlib';
import { DocumentUnreadable } from './document-error';

/** Entries one Word file may hold. */
export const MAX_ZIP_ENTRIES = 2_000;
/** What one Word file's entries may add up to, uncompressed (MB). */
export const MAX_ZIP_UNCOMPRESSED_MB = 64;

/** One entry of a zip's central directory. */
interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  declaredSize: number;
  localHeader: number;
}

/** The entries the zip's central directory lists (refused: no directory, zip64, a damaged one, too many entries). */
function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: 22 bytes plus a comment of up to 65,535, at the end of the file.
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new DocumentUnreadable('not a readable Word document (no zip directory)');
  const count = view.getUint16(eocd + 10, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff)
    throw new DocumentUnreadable('not a readable Word document (zip64 archives are not read)');
  if (count > MAX_ZIP_ENTRIES)
    throw new DocumentUnreadable(`the Word document holds ${count} files, more than the ${MAX_ZIP_ENTRIES} allowed`);
  const entries: ZipEntry[] = [];
  for (let i = 0, at = directoryOffset; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50)
      throw new DocumentUnreadable('not a readable Word document (damaged zip directory)');
    const nameLength = view.getUint16(at + 28, true);
    entries.push({
      name: Buffer.from(
        bytes.buffer,
        bytes.byteOffset + at + 46,
        Math.min(nameLength, bytes.length - at - 46),
      ).toString('latin1'),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      declaredSize: view.getUint32(at + 24, true),
      localHeader: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/**
 * Refuses a zip whose central directory declares too many entries or too many bytes once
 * inflated (a zip bomb), before anything is inflated. The declared sizes can lie: see
 * `checkWordXml` for what the reader parses.
 */
export function checkZipBounds(bytes: Uint8Array): void {
  let total = 0;
  for (const entry of zipEntries(bytes)) {
    total += entry.declaredSize;
    if (total > MAX_ZIP_UNCOMPRESSED_MB * 1024 * 1024) {
      throw new DocumentUnreadable(`the Word document inflates to more than ${MAX_ZIP_UNCOMPRESSED_MB} MB`);
    }
  }
}

/**
 * The XML of a Word file, per MB of heap the reading thread may hold. mammoth holds 60 to 130
 * bytes of heap per byte of XML it reads (a run of tiny paragraphs the most, measured): 4 KB a MB
 * keeps it under half the heap (2 MB of XML at 512 MB), so a thread never meets its limit
 * mid-document, where V8 may fail the whole process rather than the thread.
 */
export const WORD_XML_BYTES_PER_HEAP_MB = 4 * 1024;

/**
 * Refuses a Word file whose XML parts (`.xml`, `.rels`), inflated, add up to more than
 * `maxBytes`: each is inflated here with its output bounded by what is left, so a size the
 * directory understates is caught too. Images and other parts are not counted (not parsed).
 */
export function checkWordXml(bytes: Uint8Array, maxBytes: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const refuse = () =>
    new DocumentUnreadable(
      `the Word document's text is more than ${(maxBytes / 2 ** 20).toFixed(1)} MB of XML once inflated (EXTRACT_MAX_HEAP_MB bounds it)`,
    );
  let total = 0;
  for (const entry of zipEntries(bytes)) {
    if (!/\.(xml|rels)$/i.test(entry.name)) continue;
    const at = entry.localHeader;
    if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50)
      throw new DocumentUnreadable('not a readable Word document (damaged zip entry)');
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const data = bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
    let size: number;
    if (entry.method === 0) size = data.length;
    else if (entry.method === 8) {
      try {
        size = inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes - total + 1) }).length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw refuse();
        throw new DocumentUnreadable(`not a readable Word document (${entry.name} does not inflate)`);
      }
    } else
      throw new DocumentUnreadable(`not a readable Word document (${entry.name}: compression method ${entry.method})`);
    total += size;
    if (total > maxBytes) throw refuse();
  }
}
