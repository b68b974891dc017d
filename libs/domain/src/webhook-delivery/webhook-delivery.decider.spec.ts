import { specFor, testContext } from '../testing/given-when-then';
import { retryDelayMs, webhookDeliveryDecider, type WebhookDeliveryCommand } from './webhook-delivery.decider';
import type { WebhookDeliveryEvent } from './webhook-delivery.events';

const NOW = '2026-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
const spec = specFor(webhookDeliveryDecider, () => testContext(NOW));

const delivery = {
  delivery_id: 'search_run.completed-s1',
  team_id: 'acme',
  url: 'https://hooks.example.com/in',
  type: 'search_run.completed',
  payload: { type: 'search_run.completed', timestamp: at(-5), data: { search_id: 's1' } },
  max_attempts: 3,
  backoff_seconds: 30,
};

const requested: WebhookDeliveryEvent = {
  type: 'WebhookDeliveryRequested',
  data: { ...delivery, webhook_id: 'msg_w1', requested_at: at(-60) },
};
const started = (attempt: number, secondsAgo = 1, worker_id = 'w-a'): WebhookDeliveryEvent => ({
  type: 'WebhookAttemptStarted',
  data: { attempt, at: at(-secondsAgo), worker_id },
});
const failed = (
  attempt: number,
  next_attempt_at: string | null,
  status: number | null = 500,
): WebhookDeliveryEvent => ({
  type: 'WebhookAttemptFailed',
  data: { attempt, status, error: `HTTP ${status}`, next_attempt_at },
});
const delivered: WebhookDeliveryEvent = { type: 'WebhookDelivered', data: { attempt: 1, status: 200, at: at(-1) } };
const abandoned: WebhookDeliveryEvent = { type: 'WebhookDeliveryAbandoned', data: { reason: 'gone', at: at(-1) } };

const request: WebhookDeliveryCommand = { type: 'RequestDelivery', delivery };
const start: WebhookDeliveryCommand = { type: 'StartAttempt', worker_id: 'w-b', takeover_after_seconds: 30 };
const ok = (attempt: number): WebhookDeliveryCommand => ({ type: 'RecordDelivered', attempt, status: 204 });
const fail = (attempt: number, status: number | null = 503, jitter = 0.5): WebhookDeliveryCommand => ({
  type: 'RecordAttemptFailed',
  attempt,
  status,
  error: status === null ? 'connect ECONNREFUSED' : `HTTP ${status}`,
  jitter,
});
const blocked = (attempt: number): WebhookDeliveryCommand => ({
  type: 'RecordAttemptBlocked',
  attempt,
  error: 'refused: 10.0.0.1 is a private address',
});

describe('webhook delivery decider', () => {
  describe('retryDelayMs', () => {
    it('doubles from backoff_seconds per failed attempt', () => {
      expect([1, 2, 3].map((n) => retryDelayMs(30, n, 0.5))).toEqual([30_000, 60_000, 120_000]);
    });
    it('jitters by at most 10% either way', () => {
      expect(retryDelayMs(30, 1, 0)).toBe(27_000);
      expect(retryDelayMs(30, 1, 1)).toBe(33_000);
      expect(retryDelayMs(30, 2, 0.25)).toBe(57_000);
    });
  });

  describe('when absent', () => {
    it('RequestDelivery records the request with a fresh webhook-id, due at once', () =>
      spec([])
        .when(request)
        .then([
          { type: 'WebhookDeliveryRequested', data: { ...delivery, webhook_id: 'msg_id-1', requested_at: NOW } },
        ]));
    it('RequestDelivery refuses max_attempts below 1', () =>
      spec([])
        .when({ type: 'RequestDelivery', delivery: { ...delivery, max_attempts: 0 } })
        .thenThrows({ refusal: 'invalid', message: /max_attempts/ }));
    it('RequestDelivery refuses a negative backoff', () =>
      spec([])
        .when({ type: 'RequestDelivery', delivery: { ...delivery, backoff_seconds: -1 } })
        .thenThrows({ refusal: 'invalid', message: /backoff_seconds/ }));
    it.each([start, ok(1), fail(1), blocked(1)])('$type is refused: nothing to attempt', (command) =>
      spec([]).when(command).thenThrows({ refusal: 'not_found' }),
    );
  });

  describe('when scheduled', () => {
    it('RequestDelivery again decides nothing (the webhook-id stays the first one)', () =>
      spec([requested]).when(request).then([]));
    it('StartAttempt takes attempt 1 when due', () =>
      spec([requested])
        .when(start)
        .then([{ type: 'WebhookAttemptStarted', data: { attempt: 1, at: NOW, worker_id: 'w-b' } }]));
    it('StartAttempt takes the next attempt once its backoff has passed', () =>
      spec([requested, started(1, 40), failed(1, at(-10))])
        .when(start)
        .then([{ type: 'WebhookAttemptStarted', data: { attempt: 2, at: NOW, worker_id: 'w-b' } }]));
    it('StartAttempt decides nothing before the backoff has passed', () =>
      spec([requested, started(1, 40), failed(1, at(10))])
        .when(start)
        .then([]));
    it('StartAttempt decides nothing when no attempt follows', () =>
      spec([requested, started(1), failed(1, null)])
        .when(start)
        .then([]));
    it('RecordDelivered for a closed attempt still marks it delivered (the receiver accepted it)', () =>
      spec([requested, started(1, 40), failed(1, at(10))])
        .when(ok(1))
        .then([{ type: 'WebhookDelivered', data: { attempt: 1, status: 204, at: NOW } }]));
    it('RecordAttemptFailed for an attempt already closed decides nothing', () =>
      spec([requested, started(1, 40), failed(1, at(10))])
        .when(fail(1))
        .then([]));
    it('RecordAttemptBlocked for an attempt already closed decides nothing', () =>
      spec([requested, started(1, 40), failed(1, at(10))])
        .when(blocked(1))
        .then([]));
    it.each([ok(1), fail(1), blocked(1)])('$type for an attempt never started is refused', (command) =>
      spec([requested])
        .when(command)
        .thenThrows({ refusal: 'conflict', message: /attempt 1 .* never started/ }),
    );
  });

  describe('when attempting', () => {
    const attempting = [requested, started(1, 5)];
    it('RequestDelivery decides nothing', () => spec(attempting).when(request).then([]));
    it('StartAttempt decides nothing while the attempt may still be in flight (the lock)', () =>
      spec(attempting).when(start).then([]));
    it('StartAttempt takes over an attempt whose worker recorded nothing within the lease', () =>
      spec([requested, started(1, 31)])
        .when(start)
        .then([
          {
            type: 'WebhookAttemptFailed',
            data: {
              attempt: 1,
              status: null,
              error: 'interrupted: worker w-a recorded no outcome within 30 s',
              next_attempt_at: NOW,
            },
          },
          { type: 'WebhookAttemptStarted', data: { attempt: 2, at: NOW, worker_id: 'w-b' } },
        ]));
    it('StartAttempt abandons when the interrupted attempt was the last one', () =>
      spec([requested, started(1, 100), failed(1, at(-90)), started(2, 80), failed(2, at(-60)), started(3, 31)])
        .when(start)
        .then([
          {
            type: 'WebhookAttemptFailed',
            data: {
              attempt: 3,
              status: null,
              error: 'interrupted: worker w-a recorded no outcome within 30 s',
              next_attempt_at: null,
            },
          },
          { type: 'WebhookDeliveryAbandoned', data: { reason: 'max_attempts', at: NOW } },
        ]));
    it('RecordDelivered marks it delivered', () =>
      spec(attempting)
        .when(ok(1))
        .then([{ type: 'WebhookDelivered', data: { attempt: 1, status: 204, at: NOW } }]));
    it('RecordDelivered refuses a status that is not 2xx', () =>
      spec(attempting)
        .when({ type: 'RecordDelivered', attempt: 1, status: 302 })
        .thenThrows({ refusal: 'invalid', message: /302/ }));
    it('RecordAttemptFailed schedules the retry after the jittered backoff', () =>
      spec(attempting)
        .when(fail(1, 503, 0))
        .then([
          {
            type: 'WebhookAttemptFailed',
            data: { attempt: 1, status: 503, error: 'HTTP 503', next_attempt_at: at(27) },
          },
        ]));
    it('RecordAttemptFailed without a response (status null) retries too', () =>
      spec([requested, started(1, 40), failed(1, at(-10)), started(2)])
        .when(fail(2, null, 1))
        .then([
          {
            type: 'WebhookAttemptFailed',
            data: { attempt: 2, status: null, error: 'connect ECONNREFUSED', next_attempt_at: at(66) },
          },
        ]));
    it('RecordAttemptFailed on the last attempt abandons with max_attempts', () =>
      spec([requested, started(1, 100), failed(1, at(-90)), started(2, 80), failed(2, at(-60)), started(3)])
        .when(fail(3))
        .then([
          { type: 'WebhookAttemptFailed', data: { attempt: 3, status: 503, error: 'HTTP 503', next_attempt_at: null } },
          { type: 'WebhookDeliveryAbandoned', data: { reason: 'max_attempts', at: NOW } },
        ]));
    it('RecordAttemptFailed with 410 abandons at once (gone)', () =>
      spec(attempting)
        .when(fail(1, 410))
        .then([
          { type: 'WebhookAttemptFailed', data: { attempt: 1, status: 410, error: 'HTTP 410', next_attempt_at: null } },
          { type: 'WebhookDeliveryAbandoned', data: { reason: 'gone', at: NOW } },
        ]));
    it('RecordAttemptFailed refuses a jitter outside [0, 1]', () =>
      spec(attempting)
        .when(fail(1, 500, 1.5))
        .thenThrows({ refusal: 'invalid', message: /jitter/ }));
    it('RecordAttemptFailed for a superseded attempt decides nothing', () =>
      spec([requested, started(1, 40), failed(1, NOW), started(2)])
        .when(fail(1))
        .then([]));
    it('RecordAttemptBlocked abandons with blocked, keeping the reason on the attempt', () =>
      spec(attempting)
        .when(blocked(1))
        .then([
          {
            type: 'WebhookAttemptFailed',
            data: { attempt: 1, status: null, error: 'refused: 10.0.0.1 is a private address', next_attempt_at: null },
          },
          { type: 'WebhookDeliveryAbandoned', data: { reason: 'blocked', at: NOW } },
        ]));
    it.each([ok(2), fail(2), blocked(2)])('$type for a later attempt than started is refused', (command) =>
      spec(attempting).when(command).thenThrows({ refusal: 'conflict' }),
    );
  });

  describe.each([
    ['delivered', [requested, started(1), delivered]],
    ['abandoned', [requested, started(1), failed(1, null, 410), abandoned]],
  ])('when %s', (_name, given) => {
    it.each([request, start, ok(1), fail(1), blocked(1)])('$type decides nothing: the delivery is over', (command) =>
      spec(given).when(command).then([]),
    );
  });

  describe('evolve', () => {
    it('ignores events before the request and anything after the outcome', () => {
      const { evolve, initialState } = webhookDeliveryDecider;
      expect(evolve(initialState, started(1))).toEqual(initialState);
      const done = [requested, started(1), delivered].reduce(evolve, initialState);
      expect(evolve(done, started(2))).toEqual(done);
      expect(done).toMatchObject({ status: 'delivered', attempts: 1 });
    });
  });
});
