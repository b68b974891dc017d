/**
 * Outbound throttle for one upstream: at most `maxConcurrent` requests in flight AND a token bucket
 * of `requestsPerSecond` (bursts up to `burst`). Hosted APIs bill and rate-limit per second, and
 * SearXNG instances (and the engines behind them) ban bursty clients, so we queue instead of
 * sending and eating 429s. FIFO, so a caller is never starved by later ones.
 */
export interface ThrottleOptions {
  maxConcurrent: number;
  /** Sustained rate; 0 = no rate limit (concurrency only). */
  requestsPerSecond: number;
  /** Bucket size; defaults to max(1, maxConcurrent). */
  burst?: number;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class Throttle {
  private active = 0;
  private tokens: number;
  private refilledAt: number;
  private readonly burst: number;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly options: ThrottleOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(options.maxConcurrent >= 1)) throw new RangeError('maxConcurrent must be >= 1');
    if (!(options.requestsPerSecond >= 0)) throw new RangeError('requestsPerSecond must be >= 0');
    this.burst = Math.max(1, options.burst ?? options.maxConcurrent);
    this.tokens = this.burst;
    this.refilledAt = now();
  }

  /** Requests waiting for a slot (for metrics and tests). */
  get pending(): number {
    return this.queue.length;
  }

  get inFlight(): number {
    return this.active;
  }

  /** Resolves with a release function once a slot and a token are free; call release exactly once. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.closed) return Promise.reject(new Error('throttle closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.pump();
    });
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Rejects every queued caller; in-flight requests finish on their own. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const waiter of this.queue.splice(0)) {
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new Error('throttle closed'));
    }
  }

  private refill(): void {
    const now = this.now();
    if (this.options.requestsPerSecond > 0) {
      this.tokens = Math.min(
        this.burst,
        this.tokens + ((now - this.refilledAt) / 1000) * this.options.requestsPerSecond,
      );
    }
    this.refilledAt = now;
  }

  private pump(): void {
    while (this.queue.length > 0 && this.active < this.options.maxConcurrent) {
      const limited = this.options.requestsPerSecond > 0;
      if (limited) {
        this.refill();
        if (this.tokens < 1) {
          // Wake when the next token is due; one timer at a time.
          if (!this.timer) {
            const waitMs = Math.ceil(((1 - this.tokens) / this.options.requestsPerSecond) * 1000);
            this.timer = setTimeout(() => {
              this.timer = undefined;
              this.pump();
            }, waitMs);
          }
          return;
        }
        this.tokens -= 1;
      }
      const waiter = this.queue.shift()!;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.active++;
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        this.active--;
        this.pump();
      });
    }
  }
}
