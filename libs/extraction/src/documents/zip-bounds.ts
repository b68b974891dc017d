import { DocumentUnreadable } from './document-error';

/** Entries one Word file may hold. */
export const MAX_ZIP_ENTRIES = 2_000;
/** What one Word file's entries may add up to, uncompressed (MB). */
export const MAX_ZIP_UNCOMPRESSED_MB = 64;

/**
 * Refuses a zip whose central directory declares too many entries or too many bytes once
 * inflated (a zip bomb), before anything is inflated. The declared sizes can lie: the extraction
 * thread's heap limit and deadline stop an archive that inflates past what it declares.
 */
export function checkZipBounds(bytes: Uint8Array): void {
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
  const entries = view.getUint16(eocd + 10, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || directoryOffset === 0xffffffff)
    throw new DocumentUnreadable('not a readable Word document (zip64 archives are not read)');
  if (entries > MAX_ZIP_ENTRIES)
    throw new DocumentUnreadable(`the Word document holds ${entries} files, more than the ${MAX_ZIP_ENTRIES} allowed`);
  let total = 0;
  for (let i = 0, at = directoryOffset; i < entries; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50)
      throw new DocumentUnreadable('not a readable Word document (damaged zip directory)');
    total += view.getUint32(at + 24, true);
    if (total > MAX_ZIP_UNCOMPRESSED_MB * 1024 * 1024) {
      throw new DocumentUnreadable(`the Word document inflates to more than ${MAX_ZIP_UNCOMPRESSED_MB} MB`);
    }
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
}
