import { specFor, testContext } from '../testing/given-when-then';
import { idempotencyDecider, type IdempotencyEvent } from './idempotency.decider';

const NOW = '2026-01-02T00:00:00.000Z';
const spec = specFor(idempotencyDecider, () => testContext(NOW));
const claimCmd = (fingerprint = 'f1', request_id = 'r2') =>
  ({ type: 'Claim', fingerprint, request_id, abandon_after_ms: 60_000 }) as const;
const claimed = (at = '2026-01-01T23:59:30.000Z', fingerprint = 'f1'): IdempotencyEvent => ({
  type: 'IdempotencyKeyClaimed',
  data: { fingerprint, request_id: 'r1', claimed_at: at },
});
const recorded: IdempotencyEvent = {
  type: 'IdempotentResponseRecorded',
  data: { request_id: 'r1', response: { status: 200, body: { ok: 1 } }, completed_at: '2026-01-01T23:59:31.000Z' },
};

describe('idempotency decider', () => {
  describe('when free', () => {
    it('claims the key', () =>
      spec([])
        .when(claimCmd())
        .then([{ type: 'IdempotencyKeyClaimed', data: { fingerprint: 'f1', request_id: 'r2', claimed_at: NOW } }]));
    it('records nothing for a request that holds no claim', () =>
      spec([])
        .when({ type: 'RecordResponse', request_id: 'r2', response: { status: 200, body: null } })
        .then([]));
  });

  describe('when claimed', () => {
    it('refuses the same request while in progress with 409', () =>
      spec([claimed()]).when(claimCmd()).thenThrows({ refusal: 'conflict' }));
    it('refuses a different body with 422', () =>
      spec([claimed()]).when(claimCmd('f2')).thenThrows({ refusal: 'invalid' }));
    it('lets an abandoned claim be taken over', () =>
      spec([claimed('2026-01-01T23:00:00.000Z')])
        .when(claimCmd())
        .then([{ type: 'IdempotencyKeyClaimed', data: { fingerprint: 'f1', request_id: 'r2', claimed_at: NOW } }]));
    it('records the response of the claiming request only', () => {
      spec([claimed()])
        .when({ type: 'RecordResponse', request_id: 'r1', response: { status: 200, body: { ok: 1 } } })
        .then([
          {
            type: 'IdempotentResponseRecorded',
            data: { request_id: 'r1', response: { status: 200, body: { ok: 1 } }, completed_at: NOW },
          },
        ]);
      spec([claimed()])
        .when({ type: 'RecordResponse', request_id: 'other', response: { status: 200, body: null } })
        .then([]);
    });
    it('releases the claim after a failure so a retry can run', () => {
      spec([claimed()])
        .when({ type: 'Release', request_id: 'r1' })
        .then([{ type: 'IdempotencyKeyReleased', data: { request_id: 'r1', released_at: NOW } }]);
      const state = [
        claimed(),
        { type: 'IdempotencyKeyReleased', data: { request_id: 'r1', released_at: NOW } } as IdempotencyEvent,
      ].reduce(idempotencyDecider.evolve, idempotencyDecider.initialState);
      expect(state).toEqual({ status: 'free' });
    });
  });

  describe('when completed', () => {
    it('decides nothing for the same body, so the caller replays', () =>
      spec([claimed(), recorded]).when(claimCmd()).then([]));
    it('refuses a different body with 422', () =>
      spec([claimed(), recorded]).when(claimCmd('f2')).thenThrows({ refusal: 'invalid' }));
    it('starts afresh after 24 h', () =>
      spec([claimed('2025-12-31T23:00:00.000Z'), recorded])
        .when(claimCmd('f2'))
        .then([{ type: 'IdempotencyKeyClaimed', data: { fingerprint: 'f2', request_id: 'r2', claimed_at: NOW } }]));
  });
});
