import type { DomainEvent } from '../decider';

/**
 * Events of a `webhook-<delivery id>` stream: one webhook, from request to its outcome. The
 * delivery id is derived from what is announced (e.g. `search_run.completed-<search id>`), so
 * requesting the same delivery twice finds the stream already there and decides nothing.
 */
export type AbandonReason = 'max_attempts' | 'gone' | 'blocked';

export interface WebhookDeliveryRequestedData {
  delivery_id: string;
  /** The Standard Webhooks `webhook-id`: fixed here, so every attempt (and any replica) sends this one. */
  webhook_id: string;
  team_id: string;
  url: string;
  /** Payload type, e.g. `search_run.completed`. */
  type: string;
  /**
   * The JSON body: `{type, timestamp, data}`; null when it is too large to carry in an event
   * (a run view with page text), and then `payload_ref` names the run's end event it is built
   * from again, the same at every attempt.
   */
  payload: Record<string, unknown> | null;
  payload_ref?: { stream: string; revision: string };
  max_attempts: number;
  backoff_seconds: number;
  /**
   * The stream whose secret signs the delivery, as the announcing kind names it: `team-<id>` for
   * runs (a monitor with its own secret names its own stream). Absent on deliveries requested
   * before the field existed: the team's.
   */
  signer?: string;
  /** Where each attempt's outcome is reported (a monitor's stream, for its delivery fields); absent for runs. */
  report_to?: { stream: string; event_id: string };
  requested_at: string;
}

export type WebhookDeliveryRequested = DomainEvent<'WebhookDeliveryRequested', WebhookDeliveryRequestedData>;
/** Recorded BEFORE sending: it is the lock on the attempt, and tells a restart that it may have been sent. */
export type WebhookAttemptStarted = DomainEvent<
  'WebhookAttemptStarted',
  { attempt: number; at: string; worker_id: string }
>;
/** `status` null when no HTTP response came back; `next_attempt_at` null when no attempt follows. */
export type WebhookAttemptFailed = DomainEvent<
  'WebhookAttemptFailed',
  { attempt: number; status: number | null; error: string; next_attempt_at: string | null }
>;
export type WebhookDelivered = DomainEvent<'WebhookDelivered', { attempt: number; status: number; at: string }>;
export type WebhookDeliveryAbandoned = DomainEvent<'WebhookDeliveryAbandoned', { reason: AbandonReason; at: string }>;

export type WebhookDeliveryEvent =
  WebhookDeliveryRequested | WebhookAttemptStarted | WebhookAttemptFailed | WebhookDelivered | WebhookDeliveryAbandoned;

export const WEBHOOK_STREAM_PREFIX = 'webhook-';
export const webhookDeliveryStream = (deliveryId: string): string => `${WEBHOOK_STREAM_PREFIX}${deliveryId}`;
