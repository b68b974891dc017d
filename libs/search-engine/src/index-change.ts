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
  /** So many words were touched (a merge of large segments) that every one is to be read again: cheaper to say than to list. */
  touchedAll?: boolean;
}

export const emptyChange = (): IndexChange => ({ added: [], dropped: [], touched: [] });

/** A write touching more words than this tells a reader to read every word again rather than listing them. */
export const MAX_TOLD_WORDS = 20_000;

/** Whether a reader has anything to follow. */
export const changesSomething = (change: IndexChange): boolean =>
  change.added.length > 0 || change.dropped.length > 0 || change.touched.length > 0 || change.touchedAll === true;
