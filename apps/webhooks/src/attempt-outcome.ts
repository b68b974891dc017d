/**
 * The delivery command that records how an attempt went: delivered, blocked (never retried) or
 * failed (retried after a backoff with jitter).
 */
import type { WebhookDeliveryCommand } from '@app/domain';
import type { AttemptOutcome } from './webhook-sender';

/** `random` draws the jitter of a failed attempt's backoff, in [0, 1]. */
export function outcomeCommand(
  attempt: number,
  outcome: Exclude<AttemptOutcome, { kind: 'aborted' }>,
  random: () => number,
): WebhookDeliveryCommand {
  switch (outcome.kind) {
    case 'delivered':
      return { type: 'RecordDelivered', attempt, status: outcome.status };
    case 'blocked':
      return { type: 'RecordAttemptBlocked', attempt, error: outcome.error };
    case 'failed':
      return {
        type: 'RecordAttemptFailed',
        attempt,
        status: outcome.status,
        error: outcome.error,
        jitter: random(),
      };
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}
