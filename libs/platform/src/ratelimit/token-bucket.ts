/**
 * Per-key token buckets: `rate` tokens a second up to `burst`. A bucket is kept only while it is
 * not full, so idle keys cost no memory. `rate = 0` turns limiting off.
 */
export interface RateDecision {
  allowed: boolean;
  /** Tokens left after this request. */
  remaining: number;
  /** Seconds until a token is available (0 when allowed). */
  retryAfterSeconds: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private sweeps = 0;

  constructor(
    readonly rate: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now() / 1000,
  ) {}

  get enabled(): boolean {
    return this.rate > 0;
  }

  take(key: string): RateDecision {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const tokens = bucket ? Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.rate) : this.burst;
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return {
        allowed: false,
        remaining: 0,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.rate)),
        resetSeconds: Math.ceil((this.burst - tokens) / this.rate),
      };
    }
    const left = tokens - 1;
    this.buckets.set(key, { tokens: left, at: now });
    if (++this.sweeps % 10_000 === 0) this.sweep(now);
    return {
      allowed: true,
      remaining: Math.floor(left),
      retryAfterSeconds: 0,
      resetSeconds: Math.ceil((this.burst - left) / this.rate),
    };
  }

  private sweep(now: number) {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.rate >= this.burst) this.buckets.delete(key);
    }
  }
}
