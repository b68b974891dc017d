/**
 * The search-thread protocol. The provider writes the index on its own thread and searches it on
 * another (index-searcher.ts starts index-search-worker.ts), each through its own connection to
 * the one SQLite file. After every write the writer hands the searcher an `IndexChange`; the
 * searcher's index follows it (`LocalIndex.applyChange`): pages added are read from the file,
 * pages dropped die, and the postings of the words touched are read again when next needed.
 */

/** What one write changed, for a reader on another thread to follow (`applyChange`). */
export interface IndexChange {
  added: number[];
  dropped: number[];
  touched: string[];
}

export const emptyChange = (): IndexChange => ({ added: [], dropped: [], touched: [] });

/** Whether a reader has anything to follow. */
export const changesSomething = (change: IndexChange): boolean =>
  change.added.length > 0 || change.dropped.length > 0 || change.touched.length > 0;
