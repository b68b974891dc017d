import { type DecideContext, type Decider, Conflict, Invalid, NotFound } from '../decider';
import type { AbandonReason, WebhookDeliveryEvent, WebhookDeliveryRequestedData } from './webhook-delivery.events';

type Request = WebhookDeliveryRequestedData;

/** `attempts` counts attempts started; while `attempting`, it is the number of the one in flight. */
export type WebhookDeliveryState =
  | { status: 'absent' }
  /** `next_attempt_at` null: no attempt follows (the abandonment is in the same append). */
  | { status: 'scheduled'; request: Request; attempts: number; next_attempt_at: string | null }
  | { status: 'attempting'; request: Request; attempts: number; started_at: string; worker_id: string }
  | { status: 'delivered'; request: Request; attempts: number; delivered_at: string }
  | { status: 'abandoned'; request: Request; attempts: number; reason: AbandonReason };

type Started = Exclude<WebhookDeliveryState, { status: 'absent' }>;

export type WebhookDeliveryCommand =
  | { type: 'RequestDelivery'; delivery: Omit<Request, 'webhook_id' | 'requested_at'> }
  /**
   * Take the next attempt when it is due. An attempt started by a worker that recorded no outcome
   * within `takeover_after_seconds` (it died) is closed as failed and the next one taken.
   */
  | { type: 'StartAttempt'; worker_id: string; takeover_after_seconds: number }
  | { type: 'RecordDelivered'; attempt: number; status: number }
  /** `jitter`: a uniform draw in [0, 1], made by the caller so that `decide` stays deterministic. */
  | { type: 'RecordAttemptFailed'; attempt: number; status: number | null; error: string; jitter: number }
  /** The SSRF guard refused the URL: no attempt can ever succeed. */
  | { type: 'RecordAttemptBlocked'; attempt: number; error: string };

const JITTER = 0.1;

/** Pause after failed attempt `attempt` (1-based): b, 2b, 4b... seconds, each +-10% by `jitter`. */
export const retryDelayMs = (backoffSeconds: number, attempt: number, jitter: number): number =>
  Math.round(backoffSeconds * 1000 * 2 ** (attempt - 1) * (1 - JITTER + 2 * JITTER * jitter));

const plusMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

const mustExist = (state: WebhookDeliveryState): Started => {
  if (state.status === 'absent') throw new NotFound('webhook delivery does not exist');
  return state;
};

const isFinished = (state: Started) => state.status === 'delivered' || state.status === 'abandoned';

const mustHaveStarted = (state: Started, attempt: number) => {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > state.attempts) {
    throw new Conflict(`attempt ${attempt} of delivery ${state.request.delivery_id} was never started`);
  }
};

/** The attempt in flight, or undefined when `attempt` was already closed (e.g. taken over). */
const inFlight = (state: Started, attempt: number) => {
  mustHaveStarted(state, attempt);
  return state.status === 'attempting' && state.attempts === attempt ? state : undefined;
};

const requestDelivery = (
  { delivery }: Extract<WebhookDeliveryCommand, { type: 'RequestDelivery' }>,
  state: WebhookDeliveryState,
  { now, newId }: DecideContext,
): WebhookDeliveryEvent[] => {
  if (!Number.isInteger(delivery.max_attempts) || delivery.max_attempts < 1) {
    throw new Invalid(`max_attempts must be an integer >= 1, got ${delivery.max_attempts}`);
  }
  if (!(delivery.backoff_seconds >= 0)) {
    throw new Invalid(`backoff_seconds must be >= 0, got ${delivery.backoff_seconds}`);
  }
  if (state.status !== 'absent') return [];
  return [{ type: 'WebhookDeliveryRequested', data: { ...delivery, webhook_id: `msg_${newId()}`, requested_at: now } }];
};

const startAttempt = (
  command: Extract<WebhookDeliveryCommand, { type: 'StartAttempt' }>,
  state: WebhookDeliveryState,
  { now }: DecideContext,
): WebhookDeliveryEvent[] => {
  const delivery = mustExist(state);
  const started = {
    type: 'WebhookAttemptStarted' as const,
    data: { attempt: delivery.attempts + 1, at: now, worker_id: command.worker_id },
  };
  switch (delivery.status) {
    case 'delivered':
    case 'abandoned':
      return [];
    case 'scheduled':
      return delivery.next_attempt_at !== null && Date.parse(delivery.next_attempt_at) <= Date.parse(now)
        ? [started]
        : [];
    case 'attempting': {
      // Its worker may still be sending: only a lease past the attempt timeout makes it ours.
      if (Date.parse(delivery.started_at) + command.takeover_after_seconds * 1000 > Date.parse(now)) return [];
      const last = delivery.attempts >= delivery.request.max_attempts;
      return [
        {
          type: 'WebhookAttemptFailed',
          data: {
            attempt: delivery.attempts,
            status: null,
            error: `interrupted: worker ${delivery.worker_id} recorded no outcome within ${command.takeover_after_seconds} s`,
            next_attempt_at: last ? null : now,
          },
        },
        last ? { type: 'WebhookDeliveryAbandoned', data: { reason: 'max_attempts', at: now } } : started,
      ];
    }
    default: {
      const unreachable: never = delivery;
      return unreachable;
    }
  }
};

const recordDelivered = (
  command: Extract<WebhookDeliveryCommand, { type: 'RecordDelivered' }>,
  state: WebhookDeliveryState,
  { now }: DecideContext,
): WebhookDeliveryEvent[] => {
  const delivery = mustExist(state);
  if (isFinished(delivery)) return [];
  mustHaveStarted(delivery, command.attempt);
  if (!Number.isInteger(command.status) || command.status < 200 || command.status > 299) {
    throw new Invalid(`status ${command.status} is not a 2xx: the delivery was not accepted`);
  }
  // Even an attempt that was taken over counts: the receiver accepted it, so nothing more is sent.
  return [{ type: 'WebhookDelivered', data: { attempt: command.attempt, status: command.status, at: now } }];
};

const recordAttemptFailed = (
  command: Extract<WebhookDeliveryCommand, { type: 'RecordAttemptFailed' }>,
  state: WebhookDeliveryState,
  { now }: DecideContext,
): WebhookDeliveryEvent[] => {
  const delivery = mustExist(state);
  if (isFinished(delivery)) return [];
  if (!(command.jitter >= 0 && command.jitter <= 1))
    throw new Invalid(`jitter must be in [0, 1], got ${command.jitter}`);
  const attempt = inFlight(delivery, command.attempt);
  if (!attempt) return [];
  const { attempt: n, status, error } = command;
  const stop: AbandonReason | undefined =
    status === 410 ? 'gone' : n >= attempt.request.max_attempts ? 'max_attempts' : undefined;
  const next_attempt_at = stop ? null : plusMs(now, retryDelayMs(attempt.request.backoff_seconds, n, command.jitter));
  const failed: WebhookDeliveryEvent = {
    type: 'WebhookAttemptFailed',
    data: { attempt: n, status, error, next_attempt_at },
  };
  return stop ? [failed, { type: 'WebhookDeliveryAbandoned', data: { reason: stop, at: now } }] : [failed];
};

const recordAttemptBlocked = (
  command: Extract<WebhookDeliveryCommand, { type: 'RecordAttemptBlocked' }>,
  state: WebhookDeliveryState,
  { now }: DecideContext,
): WebhookDeliveryEvent[] => {
  const delivery = mustExist(state);
  if (isFinished(delivery) || !inFlight(delivery, command.attempt)) return [];
  return [
    {
      type: 'WebhookAttemptFailed',
      data: { attempt: command.attempt, status: null, error: command.error, next_attempt_at: null },
    },
    { type: 'WebhookDeliveryAbandoned', data: { reason: 'blocked', at: now } },
  ];
};

const evolve = (state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState => {
  if (event.type === 'WebhookDeliveryRequested') {
    return state.status === 'absent'
      ? { status: 'scheduled', request: event.data, attempts: 0, next_attempt_at: event.data.requested_at }
      : state;
  }
  if (state.status === 'absent' || isFinished(state)) return state;
  const { request } = state;
  switch (event.type) {
    case 'WebhookAttemptStarted':
      return {
        status: 'attempting',
        request,
        attempts: event.data.attempt,
        started_at: event.data.at,
        worker_id: event.data.worker_id,
      };
    case 'WebhookAttemptFailed':
      return { status: 'scheduled', request, attempts: state.attempts, next_attempt_at: event.data.next_attempt_at };
    case 'WebhookDelivered':
      return { status: 'delivered', request, attempts: state.attempts, delivered_at: event.data.at };
    case 'WebhookDeliveryAbandoned':
      return { status: 'abandoned', request, attempts: state.attempts, reason: event.data.reason };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState> = {
  initialState: { status: 'absent' },
  decide(command, state, context) {
    switch (command.type) {
      case 'RequestDelivery':
        return requestDelivery(command, state, context);
      case 'StartAttempt':
        return startAttempt(command, state, context);
      case 'RecordDelivered':
        return recordDelivered(command, state, context);
      case 'RecordAttemptFailed':
        return recordAttemptFailed(command, state, context);
      case 'RecordAttemptBlocked':
        return recordAttemptBlocked(command, state, context);
      default: {
        const unreachable: { type: string } = command satisfies never;
        throw new Error(`unknown command ${unreachable.type}`);
      }
    }
  },
  evolve,
};
