import { SetMetadata } from '@nestjs/common';
import type { Config } from '@app/config';

/** How long a route may take to answer beyond a bus call, from its raw body and the configuration (ms). */
export type AnswerWait = (body: unknown, config: Config) => number;

export const ANSWER_WAIT = 'answer-wait';

/** The reply of a call bounded by its own deadline may come this long after it (the charge, the bus). */
export const REPLY_MARGIN_MS = 5_000;

/**
 * Marks a POST that waits for work to finish before it answers (a task's `wait_seconds`, a chat
 * completion, an extract or map call bounded by EXTRACT_CALL_TIMEOUT_MS or MAP_CALL_TIMEOUT_MS):
 * its Idempotency-Key claim is not taken for abandoned while the first answer may still come.
 */
export const AnswersWithin = (wait: AnswerWait) => SetMetadata(ANSWER_WAIT, wait);

/** `wait_seconds` of a create-and-wait body as the route will read it (default 30, at most 300). */
export const waitSecondsOf = (body: unknown): number => {
  const wait = (body as { wait_seconds?: unknown } | null)?.wait_seconds;
  const seconds = typeof wait === 'number' ? wait : typeof wait === 'string' && /^\d+$/.test(wait) ? Number(wait) : 30;
  return Math.min(300, Math.max(0, seconds)) * 1000;
};
