/**
 * The search run decider once a cancel is requested, once the lease has expired, and in each
 * terminal state (completed, failed, cancelled).
 */
import { expired, spec } from '../testing/search-run.specs';
import type { SearchRunEvent } from './search-run.events';
import {
  LEASE_END,
  requested,
  started,
  takenOver,
  charged,
  planned,
  serp,
  graded,
  reported,
  cancelRequested,
  cancelled,
  request,
  start,
  heartbeat,
  complete,
  fail,
  cancel,
  confirm,
  progress,
  record,
  RUNNING,
  CANCELLING,
  COMPLETED,
  FAILED,
  CANCELLED,
} from '../testing/search-run.fixtures';

describe('search run decider', () => {
  describe('when running with cancel requested', () => {
    it('requesting again decides nothing', () => spec(CANCELLING).when(request).then([]));
    it('refuses to start it again, even by its worker', () =>
      spec(CANCELLING)
        .when(start('w1'))
        .thenThrows({ refusal: 'conflict', message: /cancelled/ }));
    it('refuses a takeover after the lease ran out: confirm instead', () =>
      expired(CANCELLING)
        .when(start('w2'))
        .thenThrows({ refusal: 'conflict', message: /confirm/ }));
    it('the holder still heartbeats while it winds down', () =>
      spec(CANCELLING)
        .when(heartbeat())
        .then([{ type: 'SearchRunHeartbeat', data: { worker_id: 'w1', lease_until: LEASE_END } }]));
    it.each(progress())('refuses %s: work stops at once', (_, command) =>
      spec(CANCELLING).when(command).thenThrows({ refusal: 'conflict', message: 'run is cancelled' }),
    );
    it('refuses to complete, even with a report', () =>
      spec([requested, started, reported, cancelRequested])
        .when(complete())
        .thenThrows({ refusal: 'conflict', message: /cancelled/ }));
    it('a failure while winding down ends it cancelled, as the caller was told', () =>
      spec(CANCELLING).when(fail('w1')).then([cancelled]));
    it('cancelling again decides nothing', () => spec(CANCELLING).when(cancel).then([]));
    it('its worker confirms the cancel', () => spec(CANCELLING).when(confirm('w1')).then([cancelled]));
    it('refuses a confirmation from another worker while the lease is live', () =>
      spec(CANCELLING)
        .when(confirm('w2'))
        .thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it('refuses a system confirmation while the lease is live', () =>
      spec(CANCELLING).when(confirm()).thenThrows({ refusal: 'conflict' }));
    it('recovery confirms once the lease ran out', () =>
      expired(CANCELLING)
        .when(confirm())
        .then([{ type: 'SearchRunCancelled', data: { cancelled_at: LEASE_END } }]));
  });

  describe('when lease expired', () => {
    const resumed: SearchRunEvent = {
      type: 'SearchRunStarted',
      data: { worker_id: 'w2', lease_until: '2026-01-01T00:00:30.000Z', started_at: LEASE_END, resumed: true },
    };
    it('requesting again decides nothing', () => expired(RUNNING).when(request).then([]));
    it('another worker takes it over (now == lease_until is expired)', () =>
      expired(RUNNING).when(start('w2')).then([resumed]));
    it('its own worker starting again decides nothing', () => expired(RUNNING).when(start('w1')).then([]));
    it('the holder may still renew while nobody took over', () =>
      expired(RUNNING)
        .when(heartbeat('w1'))
        .then([{ type: 'SearchRunHeartbeat', data: { worker_id: 'w1', lease_until: '2026-01-01T00:00:30.000Z' } }]));
    it('refuses a heartbeat from a worker that has not taken over', () =>
      expired(RUNNING).when(heartbeat('w2')).thenThrows({ refusal: 'conflict' }));
    it.each(progress())('a slow holder still records %s', (_, command, event) =>
      expired(RUNNING).when(command).then([event]),
    );
    it.each(progress('w2'))('refuses %s from a worker that has not taken over', (_, command) =>
      expired(RUNNING)
        .when(command)
        .thenThrows({ refusal: 'conflict', message: /held by worker w1/ }),
    );
    it('the slow holder may complete', () =>
      expired([...RUNNING, reported])
        .when(complete('w1'))
        .then([
          { ...charged, data: { ...charged.data, at: LEASE_END } } as SearchRunEvent,
          { type: 'SearchRunCompleted', data: { completed_at: LEASE_END } },
        ]));
    it('refuses completion by a worker that has not taken over', () =>
      expired([...RUNNING, reported])
        .when(complete('w2'))
        .thenThrows({ refusal: 'conflict' }));
    it('recovery (the system) fails it', () =>
      expired(RUNNING)
        .when(fail())
        .then([{ type: 'SearchRunFailed', data: { error: 'boom', failed_at: LEASE_END } }]));
    it('cancelling requests it', () =>
      expired(RUNNING)
        .when(cancel)
        .then([{ type: 'SearchRunCancelRequested', data: { requested_at: LEASE_END } }]));
    it('confirming a cancel nobody asked for decides nothing', () => expired(RUNNING).when(confirm()).then([]));

    describe('after a takeover', () => {
      const TAKEN = [...RUNNING, planned, serp, takenOver];
      it('the new holder re-recording old facts decides nothing', () => {
        spec(TAKEN).when(record('RecordPlan', 'w2')).then([]);
        spec(TAKEN).when(record('RecordSerpPage', 'w2')).then([]);
      });
      it('the new holder records what is new', () => spec(TAKEN).when(record('RecordFinding', 'w2')).then([graded]));
      it('the old worker has lost the lease', () =>
        spec(TAKEN)
          .when(heartbeat('w1'))
          .thenThrows({ refusal: 'conflict', message: /held by worker w2/ }));
      it('the old worker can no longer record', () =>
        spec(TAKEN)
          .when(record('RecordFinding', 'w1'))
          .thenThrows({ refusal: 'conflict', message: /held by worker w2/ }));
    });
  });

  describe.each([
    ['completed', COMPLETED],
    ['failed', FAILED],
    ['cancelled', CANCELLED],
    ['cancelled while queued', [requested, cancelRequested, cancelled]],
  ])('when %s', (status, given) => {
    const terminal = status.split(' ')[0];
    it('requesting again decides nothing', () => spec(given).when(request).then([]));
    it('refuses to start', () =>
      spec(given)
        .when(start('w2'))
        .thenThrows({ refusal: 'conflict', message: `run is ${terminal}` }));
    it('a late heartbeat decides nothing', () => spec(given).when(heartbeat()).then([]));
    it.each(progress())('refuses %s', (_, command) =>
      spec(given)
        .when(command)
        .thenThrows({ refusal: 'conflict', message: `run is ${terminal}` }),
    );
    it('failing decides nothing', () => spec(given).when(fail()).then([]));
    it('confirming a cancel decides nothing', () => spec(given).when(confirm('w1')).then([]));
    if (terminal === 'completed') {
      it('completing again decides nothing', () => spec(given).when(complete()).then([]));
      it('refuses to cancel', () =>
        spec(given).when(cancel).thenThrows({ refusal: 'conflict', message: 'cannot cancel a completed run' }));
    } else if (terminal === 'failed') {
      it('refuses to complete', () =>
        spec(given).when(complete()).thenThrows({ refusal: 'conflict', message: 'run is failed' }));
      it('refuses to cancel', () =>
        spec(given).when(cancel).thenThrows({ refusal: 'conflict', message: 'cannot cancel a failed run' }));
    } else {
      it('refuses to complete', () =>
        spec(given).when(complete()).thenThrows({ refusal: 'conflict', message: 'run is cancelled' }));
      it('cancelling again decides nothing', () => spec(given).when(cancel).then([]));
    }
  });
});
