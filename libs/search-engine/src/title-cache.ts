/**
 * Pages' titles kept in memory by blocks of consecutive ids, read a block at a time from the index
 * and bounded by bytes (least recently used block first out).
 *
 * The ranking reads some thirty titles a query, of pages scattered over the collection: one row
 * of the index's narrow title index each. At a million pages that index outgrows SQLite's page
 * cache, and a title cost 4 µs (0.11 ms a query, an eighth of the search thread's time). A block
 * is one range read of the same index; its titles are kept as UTF-8 in one buffer with each
 * id's offset, about 45 bytes a page, so 64 MB holds a million pages' titles. The index reads
 * each title's start only (the ranking reads no more), so a page's title, however long the page
 * made it, takes at most a few hundred bytes of a block.
 */

/** Ids per block (a power of two). */
export const TITLE_BLOCK_SHIFT = 10;
const BLOCK = 1 << TITLE_BLOCK_SHIFT;

/** Titles of the block's ids: `text` from `starts[i]` to `starts[i + 1]` for the block's i-th id ('' when none). */
interface TitleBlock {
  text: Buffer;
  starts: Uint32Array;
  bytes: number;
}

export class TitleCache {
  /** Blocks by their number (ids >> TITLE_BLOCK_SHIFT): an array, not a map, as every title asked for looks its block up. */
  private readonly blocks: Array<TitleBlock | undefined> = [];
  /** When each block was last used (`clock` then), so the least recently used goes first. */
  private readonly used: number[] = [];
  private clock = 0;
  private count = 0;
  private bytes = 0;
  /** Blocks read from the index since the cache was made (a benchmark's figure). */
  reads = 0;

  constructor(
    /** The titles of the pages with ids from `first` up to (not including) `end`, as [id, title] rows. */
    private readonly readRange: (first: number, end: number) => Iterable<[number, string]>,
    private readonly limit: number,
  ) {}

  /** Bytes held (the titles' and their offsets'). */
  get cachedBytes(): number {
    return this.bytes;
  }

  /** Each page's title ('' for an id the index has no page of). */
  titlesOf(ids: readonly number[]): Map<number, string> {
    const titles = new Map<number, string>();
    const now = ++this.clock;
    for (const id of ids) {
      const key = id >>> TITLE_BLOCK_SHIFT;
      const block = this.blocks[key] ?? this.read(key);
      this.used[key] = now;
      const i = id & (BLOCK - 1);
      titles.set(id, block.text.toString('utf8', block.starts[i], block.starts[i + 1]));
    }
    return titles;
  }

  /** A page's title may have changed (it was written, or dropped): its block is read again when next needed. */
  forget(id: number): void {
    this.drop(id >>> TITLE_BLOCK_SHIFT);
  }

  private drop(key: number): void {
    const block = this.blocks[key];
    if (block === undefined) return;
    this.blocks[key] = undefined;
    this.count--;
    this.bytes -= block.bytes;
  }

  private read(key: number): TitleBlock {
    const first = key << TITLE_BLOCK_SHIFT;
    const parts: Buffer[] = [];
    const ends = new Uint32Array(BLOCK);
    let length = 0;
    let filled = 0;
    for (const [id, title] of this.readRange(first, first + BLOCK)) {
      const at = id - first;
      // Ids with no page (removed, or not yet given) keep an empty title.
      while (filled < at) ends[filled++] = length;
      const bytes = Buffer.from(title, 'utf8');
      parts.push(bytes);
      length += bytes.length;
      ends[filled++] = length;
    }
    while (filled < BLOCK) ends[filled++] = length;
    const starts = new Uint32Array(BLOCK + 1);
    starts.set(ends, 1);
    const block = { text: Buffer.concat(parts, length), starts, bytes: length + starts.byteLength };
    this.reads++;
    // Room first: the least recently used blocks go (a scan of the blocks, made only when one is read past the bound).
    while (this.count > 0 && this.bytes + block.bytes > this.limit) {
      let oldest = -1;
      for (let k = 0; k < this.blocks.length; k++)
        if (this.blocks[k] !== undefined && (oldest < 0 || this.used[k] < this.used[oldest])) oldest = k;
      this.drop(oldest);
    }
    while (this.blocks.length <= key) {
      this.blocks.push(undefined);
      this.used.push(0);
    }
    this.blocks[key] = block;
    this.count++;
    this.bytes += block.bytes;
    return block;
  }
}
