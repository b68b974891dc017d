import type { Readable } from 'node:stream';
import type { RecordedEvent, Subscription } from './event-store.port';

/** The part of the client's catch-up subscription (a Readable of resolved events) used here. */
export interface EsdbSource<Resolved> extends Readable {
  unsubscribe(): Promise<void>;
  [Symbol.asyncIterator](): AsyncIterableIterator<Resolved>;
}

/**
 * Wraps a client subscription: maps (and drops) events, and makes `close()` end a pending
 * `for await` at once; cancelling the gRPC call alone does not end the client's Readable.
 */
export class EsdbSubscription<Resolved> implements Subscription {
  private closed = false;
  private interrupt: (() => void) | undefined;
  private iterating = false;

  constructor(
    private readonly source: EsdbSource<Resolved>,
    private readonly map: (resolved: Resolved) => RecordedEvent | undefined,
    private readonly onClose: (subscription: EsdbSubscription<Resolved>) => void,
  ) {
    // An error before anyone iterates must not crash the process; iteration rethrows it.
    source.on('error', () => undefined);
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.iterating) throw new Error('a subscription can be iterated only once');
    this.iterating = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<RecordedEvent> {
    const iterator = this.source[Symbol.asyncIterator]();
    try {
      while (!this.closed) {
        const step = await new Promise<IteratorResult<Resolved> | undefined>((resolve, reject) => {
          this.interrupt = () => resolve(undefined);
          iterator.next().then(resolve, reject);
        });
        this.interrupt = undefined;
        if (step === undefined || step.done || this.closed) return;
        const event = this.map(step.value);
        if (event) yield event;
      }
    } catch (error) {
      if (!this.closed) throw error; // errors caused by our own cancel are not failures
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.interrupt?.();
    this.onClose(this);
    await this.source.unsubscribe().catch(() => undefined);
    this.source.destroy();
  }
}
