import type { AllFilter, EventStore, RecordedEvent, Subscription } from './event-store.port';

export interface FollowOptions {
  /** Start after this position (undefined: from the start of the log). */
  after?: bigint;
  filter?: AllFilter;
  /** First pause before resubscribing after a drop; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  /** Told of each drop (the error and the position it resumes after). */
  onDrop?: (error: unknown, after: bigint | undefined) => void;
  /**
   * Tries at one event before it is set aside (told to `onSetAside`, then passed): one event that
   * can never be handled must not hold every later one for ever. Default: never set aside.
   */
  attemptsPerEvent?: number;
  onSetAside?: (event: RecordedEvent, error: unknown, attempts: number) => void;
}

/** A follower of the log: `stop()` ends it and resolves once its handler has returned. */
export interface Follower {
  /** Position of the last event handled (undefined before the first). */
  readonly position: bigint | undefined;
  stop(): Promise<void>;
}

/**
 * Follows `$all` from `after` for as long as it is not stopped: each event is handed to `handle`
 * once, in order. A subscription that drops (EventStoreDB drops them on restarts and leader
 * changes; a network blip does too) or ends is taken up again from the last event handled, after
 * a pause that grows while drops repeat; nothing is missed or handled twice, and nothing escapes
 * as an unobserved rejection. An event `handle` throws on is offered again after the pause (and,
 * with `attemptsPerEvent`, set aside once it failed that many times in a row).
 */
export function followAll(
  store: EventStore,
  handle: (event: RecordedEvent) => void | Promise<void>,
  options: FollowOptions = {},
): Follower {
  const retryMs = options.retryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  let position = options.after;
  let stopped = false;
  let current: Subscription | undefined;
  let wake: (() => void) | undefined;

  let failing: { position: bigint; attempts: number } | undefined;
  const loop = (async () => {
    let pause = retryMs;
    while (!stopped) {
      let error: unknown = new Error('subscription ended');
      current = store.subscribeToAll({ after: position, filter: options.filter });
      try {
        for await (const event of current) {
          if (stopped) break;
          if (position !== undefined && event.position <= position) continue;
          try {
            await handle(event);
          } catch (err) {
            const attempts = failing?.position === event.position ? failing.attempts + 1 : 1;
            failing = { position: event.position, attempts };
            if (options.attemptsPerEvent === undefined || attempts < options.attemptsPerEvent) throw err;
            options.onSetAside?.(event, err, attempts);
          }
          position = event.position;
          failing = undefined;
          pause = retryMs;
        }
      } catch (err) {
        error = err;
      } finally {
        await current.close().catch(() => undefined);
      }
      if (stopped) return;
      options.onDrop?.(error, position);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        wake = () => (clearTimeout(timer), resolve());
      });
      wake = undefined;
      pause = Math.min(pause * 2, maxRetryMs);
    }
  })();

  return {
    get position() {
      return position;
    },
    async stop() {
      stopped = true;
      wake?.();
      await current?.close().catch(() => undefined);
      await loop;
    },
  };
}
