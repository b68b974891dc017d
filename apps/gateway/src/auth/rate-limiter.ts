import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { tooManyRequests, TokenBuckets } from '@app/platform';

/**
 * The per-key token buckets (RATE_LIMIT_RPS, RATE_LIMIT_BURST), shared by every way in: HTTP
 * routes through the guard, WebSocket upgrades through run-sockets.
 */
@Injectable()
export class RateLimiter {
  private readonly buckets: TokenBuckets;
  private readonly policy: string;

  constructor(@Inject(CONFIG) config: Config) {
    this.buckets = new TokenBuckets(config.rateLimitRps, config.rateLimitBurst);
    this.policy = `${config.rateLimitBurst};w=${Math.max(1, Math.ceil(config.rateLimitBurst / Math.max(config.rateLimitRps, 1)))}`;
  }

  /** Takes a token for the key: the RateLimit headers to send, or a 429 ApiError (with Retry-After) when none is left. */
  take(keyId: string): Record<string, string> {
    if (!this.buckets.enabled) return {};
    const decision = this.buckets.take(keyId);
    const headers = {
      'RateLimit-Policy': this.policy,
      RateLimit: `limit=${this.buckets.burst}, remaining=${decision.remaining}, reset=${decision.resetSeconds}`,
    };
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds, headers);
    return headers;
  }
}
