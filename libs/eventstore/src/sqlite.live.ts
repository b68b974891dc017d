/**
 * The sqlite event log's live subscriptions: which are open, which sleep until a change they
 * read, and the data_version poll that notices appends made by other processes.
 */
import type { NewEvent, RecordedEvent, Subscription } from './event-store.port';
import type { Statement } from './sqlite.rows';
import { type ChangeSource, type EventWanted, type Pull, SqliteSubscription } from './sqlite.subscription';

export class LiveSubscriptions {
  private readonly live = new Set<SqliteSubscription>();
  /** Sleeping subscriptions, each with what it reads (none: every change wakes it). */
  private readonly waiting = new Map<() => void, EventWanted | undefined>();
  private poller: NodeJS.Timeout | undefined;
  private lastDataVersion: unknown;

  constructor(
    private readonly dataVersion: Statement,
    private readonly pollIntervalMs: number,
  ) {}

  private readonly changes: ChangeSource = {
    onNextChange: (wake, wants) => this.waiting.set(wake, wants),
    cancelWake: (wake) => this.waiting.delete(wake),
    released: (subscription) => {
      this.live.delete(subscription);
      if (this.live.size === 0) this.stopPolling();
    },
  };

  track(
    readAfter: (cursor: bigint) => Pull,
    cursorOf: (event: RecordedEvent) => bigint,
    start: bigint,
    wants?: EventWanted,
  ): Subscription {
    const subscription = new SqliteSubscription(this.changes, readAfter, cursorOf, start, wants);
    this.live.add(subscription);
    this.startPolling();
    return subscription;
  }

  /** Closes every live subscription. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.live].map((subscription) => subscription.close()));
  }

  /**
   * Wakes the sleeping subscriptions: all of them for a change another process made (its events
   * are unknown here), only those reading one of `events` for an append made in this process.
   */
  wakeAll(stream?: string, events?: readonly NewEvent[]): void {
    if (this.waiting.size === 0) return;
    const woken: Array<() => void> = [];
    for (const [wake, wants] of this.waiting) {
      if (stream !== undefined && events && wants && !events.some((event) => wants(stream, event.type))) continue;
      woken.push(wake);
    }
    for (const wake of woken) this.waiting.delete(wake);
    for (const wake of woken) wake();
  }

  /**
   * Appends by other connections (other processes) are noticed through PRAGMA data_version,
   * which changes whenever another connection commits: one cheap query per tick, one timer
   * per store, unref'd so it never keeps the process alive.
   */
  private startPolling(): void {
    if (this.poller) return;
    this.lastDataVersion = this.dataVersion.get();
    this.poller = setInterval(() => {
      if (this.waiting.size === 0) return; // busy subscribers read anyway; a stale baseline only causes one spurious wake
      const version = this.dataVersion.get();
      if (version !== this.lastDataVersion) {
        this.lastDataVersion = version;
        this.wakeAll();
      }
    }, this.pollIntervalMs);
    this.poller.unref();
  }

  stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = undefined;
  }
}
