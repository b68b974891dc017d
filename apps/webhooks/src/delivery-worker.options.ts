/**
 * The delivery worker's settings (retry policy, SSRF exceptions, timeouts, concurrency, clock and
 * jitter), their injection token, and their defaults from the configuration.
 */
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import type { Config } from '@app/config';
import type { Resolver } from '@app/fetch';
import { WEBHOOK_USER_AGENT } from './webhook-sender';

export interface DeliveryWorkerOptions {
  /** Retry policy of run webhooks (WEBHOOK_MAX_ATTEMPTS, WEBHOOK_BACKOFF_SECONDS). */
  maxAttempts: number;
  backoffSeconds: number;
  /** FETCH_ALLOW_HOSTS: the SSRF guard's exceptions. */
  allowHosts: readonly string[];
  /** The whole exchange of one attempt (API.md: 10 s). */
  attemptTimeoutMs: number;
  /** An attempt with no outcome after this long lost its worker: another one takes over. Must exceed attemptTimeoutMs. */
  takeoverAfterMs: number;
  /** Shutdown waits this long for attempts in flight, then cuts them. */
  drainMs: number;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Read-store checkpoint of the run-end follower. */
  checkpointName: string;
  workerId: string;
  userAgent: string;
  resolver?: Resolver;
  now: () => Date;
  /** Jitter draws in [0, 1]. */
  random: () => number;
  /** First pause before a failed follower resubscribes (default 1 s; doubles while failures repeat). */
  followRetryMs?: number;
}

export const DELIVERY_WORKER_OPTIONS = Symbol('DELIVERY_WORKER_OPTIONS');

export const deliveryWorkerOptions = (
  config: Config,
  overrides: Partial<DeliveryWorkerOptions> = {},
): DeliveryWorkerOptions => ({
  maxAttempts: config.webhookMaxAttempts,
  backoffSeconds: config.webhookBackoffSeconds,
  allowHosts: config.fetchAllowHosts,
  attemptTimeoutMs: 10_000,
  takeoverAfterMs: 30_000,
  drainMs: 12_000,
  concurrency: 16,
  checkpointName: 'webhooks:requests@v1',
  workerId: `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
  userAgent: WEBHOOK_USER_AGENT,
  now: () => new Date(),
  random: Math.random,
  ...overrides,
});
