/**
 * What a Projector can be given (checkpoint names, batching, retry policy, logger, dead-letter
 * hook) and the states it reports.
 */
import type { LoggerService } from '@nestjs/common';
import type { DeadLetter } from './dead-letters';

export interface ProjectorOptions {
  /** Prefix of the per-projection checkpoint names (`<prefix>:<name>@v<version>`). */
  checkpointName?: string;
  /** Save checkpoints after this many applied events... */
  batch?: number;
  /** ...or this long after the first unsaved one, whichever comes first. */
  flushMs?: number;
  /**
   * Up to this many events the subscription already holds are applied together: each document
   * read once and written once, at its last version (default 200; 1 writes per event).
   */
  writeBatch?: number;
  /** Consecutive failures (projection, read store or subscription) tolerated before stopping. */
  retries?: number;
  /** Backoff before the first retry; doubles on each further one. */
  retryDelayMs?: number;
  logger?: Pick<LoggerService, 'log' | 'error' | 'warn'>;
  /** Told of each event a projection could not write and that was set aside (a metric). */
  onDeadLetter?: (letter: DeadLetter) => void;
}

/** `live` = caught up with the head read at start and following: what /readyz wants to see. */
export type ProjectorStatus = 'idle' | 'catching-up' | 'live' | 'failed' | 'stopped';
