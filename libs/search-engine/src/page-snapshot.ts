/**
 * The page table kept beside the index file, so that a boot reads one file of arrays instead of
 * every page row (at 880,000 pages the rows took 7.4 s to read, on each of the two threads that
 * hold a table). The snapshot names the index's pages version (counted in the index's meta table
 * by every write of pages): a snapshot of another version, or one that cannot be read whole, is
 * not used, and the table is read from the rows as before.
 *
 * Layout: a 4-byte length, the header (JSON), padding to 8 bytes, then each array of the table
 * in `ARRAYS` order, `capacity` elements each, each padded to 8 bytes.
 */
import * as fs from 'node:fs';
import { ARRAYS, PageTable, type PageTableState } from './page-table';

const FORMAT = 1;

interface Header extends PageTableState {
  format: number;
  /** The index's pages version the table was taken at. */
  version: number;
  /** The next page id the index hands out. */
  nextId: number;
  capacity: number;
}

const pad8 = (n: number) => (n + 7) & ~7;

/** Writes the table (atomically: a temporary file renamed over the last snapshot). */
export function writePageSnapshot(file: string, pages: PageTable, version: number, nextId: number): void {
  const capacity = pages.live.length;
  const header: Header = { format: FORMAT, version, nextId, capacity, ...pages.state() };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = pad8(4 + json.length);
  const sizes = ARRAYS.map((name) => pad8(pages[name].byteLength));
  const out = Buffer.alloc(start + sizes.reduce((a, b) => a + b, 0));
  out.writeUInt32LE(json.length, 0);
  json.copy(out, 4);
  let at = start;
  ARRAYS.forEach((name, i) => {
    const array = pages[name];
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += sizes[i]!;
  });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, out);
  fs.renameSync(temporary, file);
}

/**
 * Reads a snapshot of `version` into `pages` (an empty table): the next page id, or null when
 * there is none of that version or it is not whole (the caller reads the rows).
 */
export function readPageSnapshot(file: string, pages: PageTable, version: number): number | null {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch {
    return null;
  }
  try {
    const length = data.readUInt32LE(0);
    const header = JSON.parse(data.subarray(4, 4 + length).toString('utf8')) as Header;
    if (header.format !== FORMAT || header.version !== version) return null;
    const capacity = header.capacity;
    let at = pad8(4 + length);
    const arrays = ARRAYS.map((name) => {
      const Kind = pages[name].constructor as new (n: number) => PageTable[typeof name];
      const array = new Kind(capacity);
      const bytes = array.byteLength;
      if (at + bytes > data.length) throw new Error('the snapshot is cut short');
      new Uint8Array(array.buffer).set(data.subarray(at, at + bytes));
      at += pad8(bytes);
      return array;
    });
    if (at !== data.length) throw new Error('the snapshot has more than its arrays');
    pages.restore(
      header,
      Object.fromEntries(ARRAYS.map((name, i) => [name, arrays[i]])) as Pick<PageTable, (typeof ARRAYS)[number]>,
    );
    return header.nextId;
  } catch {
    return null;
  }
}
