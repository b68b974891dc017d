import type { RecordedEvent, Subscription } from './event-store.port';

/**
 * One pull: the events after the cursor, and how far the read looked. With a filter, a read
 * that reached the end of the log has looked past its last match; moving the cursor there keeps
 * the next read from scanning those non-matching rows again (a sparse filter would otherwise
 * rescan from its last match on every wake).
 */
export interface Pull {
  events: RecordedEvent[];
  scannedTo?: bigint;
}

/** Whether a subscription reads an event of this stream and type. */
export type EventWanted = (stream: string, type: string) => boolean;

/** What a sqlite subscription needs from its store: change signals and live-subscription tracking. */
export interface ChangeSource {
  /**
   * Calls `wake` once, at the next change of the log (in this process or another one). With
   * `wants`, an append made in this process wakes it only when one of its events is one the
   * subscription reads: a charge appended by a search does not send every run registry back to
   * the database. Another process's appends are seen only as "something changed" and always wake.
   */
  onNextChange(wake: () => void, wants?: EventWanted): void;
  cancelWake(wake: () => void): void;
  /** Called when the subscription ends, so the store can stop polling when none is live. */
  released(subscription: SqliteSubscription): void;
}

/**
 * A catch-up subscription that pulls batches after a cursor (a position or a revision) and, when
 * it has caught up, sleeps until the store signals a change. Reading strictly after the last
 * delivered cursor is what makes it gap-free and duplicate-free across the catch-up/live switch:
 * positions and revisions are assigned in commit order (one writer at a time), so nothing can
 * appear later below the cursor.
 */
export class SqliteSubscription implements Subscription {
  private closed = false;
  private wake: (() => void) | undefined;
  private iterating = false;

  constructor(
    private readonly source: ChangeSource,
    private readonly readAfter: (cursor: bigint) => Pull,
    private readonly cursorOf: (event: RecordedEvent) => bigint,
    private cursor: bigint,
    private readonly wants?: EventWanted,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.iterating) throw new Error('a subscription can be iterated only once');
    this.iterating = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<RecordedEvent> {
    try {
      while (!this.closed) {
        const { events: batch, scannedTo } = this.readAfter(this.cursor);
        if (batch.length === 0) {
          if (scannedTo !== undefined && scannedTo > this.cursor) this.cursor = scannedTo;
          // Register synchronously after the empty read: an in-process append cannot slip in
          // between, and a cross-process one changes data_version after this read.
          await new Promise<void>((resolve) => {
            this.wake = resolve;
            this.source.onNextChange(resolve, this.wants);
          });
          this.wake = undefined;
          continue;
        }
        for (const event of batch) {
          if (this.closed) return;
          this.cursor = this.cursorOf(event);
          yield event;
        }
        if (scannedTo !== undefined && scannedTo > this.cursor) this.cursor = scannedTo;
      }
    } finally {
      await this.close(); // the consumer broke out of its loop: release the store's poller
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const wake = this.wake;
    if (wake) {
      this.source.cancelWake(wake);
      wake(); // ends a pending `for await` at once
    }
    this.source.released(this);
  }
}
