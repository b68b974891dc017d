import { fold } from '../decider';
import { almost, spec } from '../testing/search-run.specs';
import { searchRunDecider, type SearchRunCommand } from './search-run.decider';
import type { SearchRunEvent } from './search-run.events';
import { searchRunView } from './search-run.view';
import {
  T0,
  LEASE_END,
  params,
  finding,
  hit,
  requested,
  started,
  takenOver,
  planned,
  serp,
  pageOk,
  pageFailed,
  graded,
  merged,
  reported,
  charged,
  completed,
  failed,
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
  allButRequest,
  QUEUED,
  RUNNING,
  COMPLETED,
  CANCELLED,
} from '../testing/search-run.fixtures';

describe('search run decider', () => {
  describe('when absent', () => {
    it('requests the run', () => spec([]).when(request).then([requested]));
    it.each([
      ['no query', { queries: [] }],
      ['six queries', { queries: ['1', '2', '3', '4', '5', '6'] }],
      ['limit 0', { limit: 0 }],
      ['limit 101', { limit: 101 }],
      ['max_subqueries 13', { max_subqueries: 13 }],
      ['max_fetches 31', { max_fetches: 31 }],
    ])('refuses %s', (_, bad) =>
      spec([])
        .when({ ...request, params: { ...params, ...bad } } as SearchRunCommand)
        .thenThrows({ refusal: 'invalid' }),
    );
    it.each(allButRequest)('%s is a 404', (_, command) =>
      spec([])
        .when(command)
        .thenThrows({ refusal: 'not_found', message: /does not exist/ }),
    );
  });

  describe('when queued', () => {
    it('requesting the same search again decides nothing', () => spec(QUEUED).when(request).then([]));
    it('refuses another search id on this stream', () =>
      spec(QUEUED)
        .when({ ...request, run_id: 's2' } as SearchRunCommand)
        .thenThrows({ refusal: 'conflict' }));
    it('starts with a lease', () => spec(QUEUED).when(start()).then([started]));
    it('refuses a lease that is not positive', () =>
      spec(QUEUED).when({ type: 'StartRun', worker_id: 'w1', lease_seconds: 0 }).thenThrows({ refusal: 'invalid' }));
    it('refuses a heartbeat', () =>
      spec(QUEUED)
        .when(heartbeat())
        .thenThrows({ refusal: 'conflict', message: /not started/ }));
    it.each(progress())('refuses %s', (_, command) =>
      spec(QUEUED)
        .when(command)
        .thenThrows({ refusal: 'conflict', message: /not started/ }),
    );
    it('refuses to complete', () => spec(QUEUED).when(complete()).thenThrows({ refusal: 'conflict' }));
    it('the system fails it', () => spec(QUEUED).when(fail()).then([failed]));
    it('a worker fails it', () => spec(QUEUED).when(fail('w1')).then([failed]));
    it('cancelling ends it at once', () => spec(QUEUED).when(cancel).then([cancelRequested, cancelled]));
    it('confirming a cancel nobody asked for decides nothing', () => spec(QUEUED).when(confirm()).then([]));
  });

  describe('when handed back (drain)', () => {
    const released: SearchRunEvent = { type: 'SearchRunReleased', data: { worker_id: 'w1', released_at: T0 } };
    const RELEASED = [...RUNNING, released];
    const release = (worker_id: string): SearchRunCommand => ({ type: 'ReleaseRun', worker_id });
    it('the holder hands it back', () => spec(RUNNING).when(release('w1')).then([released]));
    it('another worker cannot hand back what it does not hold', () => spec(RUNNING).when(release('w2')).then([]));
    it('handing back twice decides nothing', () => spec(RELEASED).when(release('w1')).then([]));
    it('handing back a finished run decides nothing', () =>
      spec([...RUNNING, reported, charged, completed])
        .when(release('w1'))
        .then([]));
    it('a worker that believed it queued (a start, not a takeover) is refused, even with the lease lapsed', () =>
      spec(RELEASED)
        .when({ type: 'StartRun', worker_id: 'w2', lease_seconds: 15, takeover: false })
        .thenThrows({ refusal: 'conflict', message: /started by another worker/ }));
    it('another worker takes it over at once, before the old lease would have lapsed', () =>
      spec(RELEASED)
        .when(start('w2'))
        .then([
          {
            type: 'SearchRunStarted',
            data: { worker_id: 'w2', lease_until: LEASE_END, started_at: T0, resumed: true },
          },
        ]));
    it('the old holder may not record progress any more', () =>
      spec(RELEASED)
        .when({ type: 'RecordPlan', worker_id: 'w1', subqueries: ['q1'], pages_target: 1 })
        .thenThrows({ refusal: 'conflict', message: /handed back/ }));
    it('the old holder may not heartbeat', () =>
      spec(RELEASED).when(heartbeat('w1')).thenThrows({ refusal: 'conflict' }));
    it('still reads running', () => expect(searchRunView(RELEASED).status).toBe('running'));
    it('cancelling it needs a confirmation, which anyone may give', () => {
      spec(RELEASED).when(cancel).then([cancelRequested]);
      spec([...RELEASED, cancelRequested])
        .when(confirm())
        .then([cancelled]);
    });
  });

  describe('when running', () => {
    it('requesting again decides nothing', () => spec(RUNNING).when(request).then([]));
    it('starting again by its worker decides nothing', () => spec(RUNNING).when(start('w1')).then([]));
    it('refuses another worker while the lease is live', () =>
      almost(RUNNING)
        .when(start('w2'))
        .thenThrows({ refusal: 'conflict', message: `run is held by worker w1 until ${LEASE_END}` }));
    it('the holder heartbeats', () =>
      spec(RUNNING)
        .when(heartbeat('w1'))
        .then([{ type: 'SearchRunHeartbeat', data: { worker_id: 'w1', lease_until: LEASE_END } }]));
    it('refuses a heartbeat from another worker', () =>
      spec(RUNNING)
        .when(heartbeat('w2'))
        .thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it.each(progress())('%s by the holder records it', (_, command, event) =>
      spec(RUNNING).when(command).then([event]),
    );
    it.each(progress('w2'))('refuses %s from another worker', (_, command) =>
      spec(RUNNING)
        .when(command)
        .thenThrows({ refusal: 'conflict', message: /held by worker w1/ }),
    );

    describe('progress is idempotent for resume', () => {
      it('a plan already recorded decides nothing, even a different one', () =>
        spec([...RUNNING, planned])
          .when({ type: 'RecordPlan', worker_id: 'w1', subqueries: ['other'], pages_target: 9 })
          .then([]));
      it('a SERP page already recorded decides nothing', () =>
        spec([...RUNNING, serp])
          .when(record('RecordSerpPage'))
          .then([]));
      it('the next page of the same subquery is recorded', () =>
        spec([...RUNNING, serp])
          .when({ type: 'RecordSerpPage', worker_id: 'w1', subquery: 'q1', page: 2, hits: 3 })
          .then([{ type: 'SerpPageFetched', data: { subquery: 'q1', page: 2, hits: 3 } }]));
      it('a URL already fetched ok decides nothing', () =>
        spec([...RUNNING, pageOk])
          .when(record('RecordPageFetched'))
          .then([]));
      it('a URL fetched ok is not downgraded by a later failure', () =>
        spec([...RUNNING, pageOk])
          .when({
            type: 'RecordPageFetched',
            worker_id: 'w1',
            url: 'https://a.example/x',
            ok: false,
            title: null,
            error: 'x',
          })
          .then([]));
      it('a URL that failed again decides nothing', () =>
        spec([...RUNNING, pageFailed])
          .when({
            type: 'RecordPageFetched',
            worker_id: 'w1',
            url: 'https://a.example/x',
            ok: false,
            title: null,
            error: 'timeout',
          })
          .then([]));
      it('a URL that failed may be recorded ok later', () =>
        spec([...RUNNING, pageFailed])
          .when(record('RecordPageFetched'))
          .then([pageOk]));
      it('a finding for a graded subquery decides nothing', () =>
        spec([...RUNNING, graded])
          .when({ type: 'RecordFinding', worker_id: 'w1', finding: { ...finding, answer: 'other' } })
          .then([]));
      it('identical results decide nothing', () =>
        spec([...RUNNING, merged])
          .when(record('RecordResults'))
          .then([]));
      it('results that changed are recorded', () =>
        spec([...RUNNING, merged])
          .when({ type: 'RecordResults', worker_id: 'w1', results: [hit('https://a.example/x', 2)], reranked: false })
          .then([{ type: 'ResultsMerged', data: { results: [hit('https://a.example/x', 2)], reranked: false } }]));
      it('the same results re-ranked are recorded', () =>
        spec([...RUNNING, merged])
          .when({ type: 'RecordResults', worker_id: 'w1', results: [hit('https://a.example/x')], reranked: true })
          .then([{ type: 'ResultsMerged', data: { results: [hit('https://a.example/x')], reranked: true } }]));
      it('a report already written decides nothing', () =>
        spec([...RUNNING, reported])
          .when({ ...record('RecordReport'), report: 'other' } as SearchRunCommand)
          .then([]));
    });

    it('refuses to complete before a report', () =>
      spec(RUNNING).when(complete()).thenThrows({ refusal: 'conflict', message: 'no report yet' }));
    it('completes with a report, charging one credit per query', () =>
      spec([...RUNNING, reported])
        .when(complete())
        .then([charged, completed]));
    it('records a page read rendered in the browser, and charges each such read sku_render on completion (a failed one too)', () => {
      const rendered = (ok: boolean): SearchRunEvent => ({
        type: 'PageFetched',
        data: { ...(ok ? pageOk : pageFailed).data, url: `https://a.example/${ok}`, rendered: true } as never,
      });
      spec(RUNNING)
        .when({
          type: 'RecordPageFetched',
          worker_id: 'w1',
          url: 'https://a.example/true',
          ok: true,
          title: 'A',
          error: null,
          rendered: true,
        })
        .then([rendered(true)]);
      const withRenders: SearchRunEvent = {
        type: 'CreditsCharged',
        data: {
          team_id: 'acme',
          request_id: 's1',
          items: [
            { sku: 'sku_deep_search', quantity: 2, credits: 2 },
            { sku: 'sku_render', quantity: 2, credits: 2 },
          ],
          credits: 4,
          at: T0,
        },
      };
      spec([...RUNNING, pageOk, rendered(true), rendered(false), reported])
        .when(complete())
        .then([withRenders, completed]);
    });
    it('refuses completion by another worker', () =>
      spec([...RUNNING, reported])
        .when(complete('w2'))
        .thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it('its worker fails it', () => spec(RUNNING).when(fail('w1')).then([failed]));
    it('refuses a failure from another worker while the lease is live', () =>
      spec(RUNNING)
        .when(fail('w2'))
        .thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it('refuses a system failure while the lease is live', () =>
      spec(RUNNING).when(fail()).thenThrows({ refusal: 'conflict' }));
    it('cancelling only requests it: the worker confirms', () => spec(RUNNING).when(cancel).then([cancelRequested]));
    it('confirming a cancel nobody asked for decides nothing', () => spec(RUNNING).when(confirm('w1')).then([]));
  });

  describe('evolve', () => {
    const evolve = searchRunDecider.evolve;
    it('ignores events before the request', () =>
      expect(evolve(searchRunDecider.initialState, started)).toEqual({ status: 'absent' }));
    it('an ended run stays ended', () => {
      const state = fold(searchRunDecider, CANCELLED);
      expect(evolve(state, completed)).toBe(state);
      expect(evolve(state, takenOver)).toBe(state);
    });
    it('drops the lease when the run ends', () => {
      const state = fold(searchRunDecider, COMPLETED);
      expect(state).not.toHaveProperty('worker_id');
      expect(state).not.toHaveProperty('lease_until');
    });
    it('a heartbeat of a worker that lost the lease does not move it', () => {
      const state = fold(searchRunDecider, [...RUNNING, takenOver]);
      expect(evolve(state, { type: 'SearchRunHeartbeat', data: { worker_id: 'w1', lease_until: 'x' } })).toBe(state);
    });
  });
});
