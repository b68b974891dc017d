import { fold } from '../decider';
import { specFor, testContext } from '../testing/given-when-then';
import { searchRunDecider, type SearchRunCommand } from './search-run.decider';
import type { DeepSearchParams, Finding, RunResult, RunUsage, SearchRunEvent, Source } from './search-run.events';
import { searchRunListItem, searchRunView } from './search-run.view';

const T0 = '2026-01-01T00:00:00.000Z';
const LEASE_END = '2026-01-01T00:00:15.000Z';
const T_CANCEL = '2026-01-01T00:00:05.000Z';
const T_END = '2026-01-01T00:00:09.000Z';

const spec = specFor(searchRunDecider); // now = T0: w1's lease is live
const expired = specFor(searchRunDecider, () => testContext(LEASE_END)); // now >= lease_until
const almost = specFor(searchRunDecider, () => testContext('2026-01-01T00:00:14.999Z'));

const params: DeepSearchParams = {
  queries: ['solar storage', 'grid batteries'],
  prompt: null,
  objective: null,
  limit: 10,
  country: 'us',
  language: 'en',
  max_subqueries: 8,
  max_fetches: 18,
  webhook: null,
};
const finding: Finding = { subquery: 'q1', answer: 'A [1]', citations: [1], confidence: 'high', evidence: [{ source: 1, quote: 'a' }] };
const source: Source = { index: 1, url: 'https://a.example/x', title: 'A', domain: 'a.example', fetched: true, quality: 'high', first_seen_subquery: 'q1' };
const usage: RunUsage = { planner_calls: 1, grader_calls: 2, synth_calls: 1, search_queries: 4, pages_fetched: 3, tokens: { input: 10, output: 5 } };
const hit = (url: string, score = 1): RunResult => ({ url, title: 't', snippet: 's', date: null, domain: 'a.example', score });

// Events
const requested: SearchRunEvent = {
  type: 'SearchRunRequested',
  data: { search_id: 's1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params, requested_at: T0 },
};
const started: SearchRunEvent = { type: 'SearchRunStarted', data: { worker_id: 'w1', lease_until: LEASE_END, started_at: T0, resumed: false } };
const takenOver: SearchRunEvent = {
  type: 'SearchRunStarted',
  data: { worker_id: 'w2', lease_until: '2026-01-01T00:00:30.000Z', started_at: LEASE_END, resumed: true },
};
const planned: SearchRunEvent = { type: 'SubqueriesPlanned', data: { subqueries: ['q1', 'q2'], pages_target: 4 } };
const serp: SearchRunEvent = { type: 'SerpPageFetched', data: { subquery: 'q1', page: 1, hits: 10 } };
const pageOk: SearchRunEvent = { type: 'PageFetched', data: { url: 'https://a.example/x', ok: true, title: 'A', error: null } };
const pageFailed: SearchRunEvent = { type: 'PageFetched', data: { url: 'https://a.example/x', ok: false, title: null, error: 'timeout' } };
const graded: SearchRunEvent = { type: 'FindingGraded', data: { finding } };
const merged: SearchRunEvent = { type: 'ResultsMerged', data: { results: [hit('https://a.example/x')], reranked: false } };
const reported: SearchRunEvent = { type: 'ReportWritten', data: { report: '# R [1]', findings: [finding], sources: [source], usage } };
const charged: SearchRunEvent = {
  type: 'CreditsCharged',
  data: { team_id: 'acme', request_id: 's1', items: [{ sku: 'sku_deep_search', quantity: 2, credits: 2 }], credits: 2, at: T0 },
};
const completed: SearchRunEvent = { type: 'SearchRunCompleted', data: { completed_at: T0 } };
const failed: SearchRunEvent = { type: 'SearchRunFailed', data: { error: 'boom', failed_at: T0 } };
const cancelRequested: SearchRunEvent = { type: 'SearchRunCancelRequested', data: { requested_at: T0 } };
const cancelled: SearchRunEvent = { type: 'SearchRunCancelled', data: { cancelled_at: T0 } };

// Commands
const request: SearchRunCommand = { type: 'RequestRun', run_id: 's1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params };
const start = (worker_id = 'w1'): SearchRunCommand => ({ type: 'StartRun', worker_id, lease_seconds: 15 });
const heartbeat = (worker_id = 'w1'): SearchRunCommand => ({ type: 'Heartbeat', worker_id, lease_seconds: 15 });
const complete = (worker_id = 'w1'): SearchRunCommand => ({ type: 'CompleteRun', worker_id });
const fail = (worker_id?: string): SearchRunCommand => ({ type: 'FailRun', worker_id, error: 'boom' });
const cancel: SearchRunCommand = { type: 'CancelRun' };
const confirm = (worker_id?: string): SearchRunCommand => ({ type: 'ConfirmCancelled', worker_id });
/** Each progress command with the event it records. */
const progress = (worker_id = 'w1'): [string, SearchRunCommand, SearchRunEvent][] => [
  ['RecordPlan', { type: 'RecordPlan', worker_id, subqueries: ['q1', 'q2'], pages_target: 4 }, planned],
  ['RecordSerpPage', { type: 'RecordSerpPage', worker_id, subquery: 'q1', page: 1, hits: 10 }, serp],
  ['RecordPageFetched', { type: 'RecordPageFetched', worker_id, url: 'https://a.example/x', ok: true, title: 'A', error: null }, pageOk],
  ['RecordFinding', { type: 'RecordFinding', worker_id, finding }, graded],
  ['RecordResults', { type: 'RecordResults', worker_id, results: [hit('https://a.example/x')], reranked: false }, merged],
  ['RecordReport', { type: 'RecordReport', worker_id, report: '# R [1]', findings: [finding], sources: [source], usage }, reported],
];
const record = (name: string, worker_id = 'w1'): SearchRunCommand => progress(worker_id).find(([n]) => n === name)![1];
const allButRequest: [string, SearchRunCommand][] = [
  ['StartRun', start()],
  ['Heartbeat', heartbeat()],
  ...progress().map(([name, command]): [string, SearchRunCommand] => [name, command]),
  ['CompleteRun', complete()],
  ['FailRun', fail()],
  ['CancelRun', cancel],
  ['ConfirmCancelled', confirm('w1')],
];

const QUEUED = [requested];
const RUNNING = [requested, started];
const CANCELLING = [requested, started, cancelRequested];
const COMPLETED = [requested, started, reported, charged, completed];
const FAILED = [requested, started, failed];
const CANCELLED = [requested, started, cancelRequested, cancelled];

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
        .thenThrows({ refusal: 'invalid' }));
    it.each(allButRequest)('%s is a 404', (_, command) => spec([]).when(command).thenThrows({ refusal: 'not_found', message: /does not exist/ }));
  });

  describe('when queued', () => {
    it('requesting the same search again decides nothing', () => spec(QUEUED).when(request).then([]));
    it('refuses another search id on this stream', () =>
      spec(QUEUED).when({ ...request, run_id: 's2' } as SearchRunCommand).thenThrows({ refusal: 'conflict' }));
    it('starts with a lease', () => spec(QUEUED).when(start()).then([started]));
    it('refuses a lease that is not positive', () =>
      spec(QUEUED).when({ type: 'StartRun', worker_id: 'w1', lease_seconds: 0 }).thenThrows({ refusal: 'invalid' }));
    it('refuses a heartbeat', () => spec(QUEUED).when(heartbeat()).thenThrows({ refusal: 'conflict', message: /not started/ }));
    it.each(progress())('refuses %s', (_, command) => spec(QUEUED).when(command).thenThrows({ refusal: 'conflict', message: /not started/ }));
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
    it('handing back a finished run decides nothing', () => spec([...RUNNING, reported, charged, completed]).when(release('w1')).then([]));
    it('a worker that believed it queued (a start, not a takeover) is refused, even with the lease lapsed', () =>
      spec(RELEASED).when({ type: 'StartRun', worker_id: 'w2', lease_seconds: 15, takeover: false }).thenThrows({ refusal: 'conflict', message: /started by another worker/ }));
    it('another worker takes it over at once, before the old lease would have lapsed', () =>
      spec(RELEASED).when(start('w2')).then([{ type: 'SearchRunStarted', data: { worker_id: 'w2', lease_until: LEASE_END, started_at: T0, resumed: true } }]));
    it('the old holder may not record progress any more', () =>
      spec(RELEASED).when({ type: 'RecordPlan', worker_id: 'w1', subqueries: ['q1'], pages_target: 1 }).thenThrows({ refusal: 'conflict', message: /handed back/ }));
    it('the old holder may not heartbeat', () => spec(RELEASED).when(heartbeat('w1')).thenThrows({ refusal: 'conflict' }));
    it('still reads running', () => expect(searchRunView(RELEASED).status).toBe('running'));
    it('cancelling it needs a confirmation, which anyone may give', () => {
      spec(RELEASED).when(cancel).then([cancelRequested]);
      spec([...RELEASED, cancelRequested]).when(confirm()).then([cancelled]);
    });
  });

  describe('when running', () => {
    it('requesting again decides nothing', () => spec(RUNNING).when(request).then([]));
    it('starting again by its worker decides nothing', () => spec(RUNNING).when(start('w1')).then([]));
    it('refuses another worker while the lease is live', () =>
      almost(RUNNING).when(start('w2')).thenThrows({ refusal: 'conflict', message: `run is held by worker w1 until ${LEASE_END}` }));
    it('the holder heartbeats', () =>
      spec(RUNNING)
        .when(heartbeat('w1'))
        .then([{ type: 'SearchRunHeartbeat', data: { worker_id: 'w1', lease_until: LEASE_END } }]));
    it('refuses a heartbeat from another worker', () => spec(RUNNING).when(heartbeat('w2')).thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it.each(progress())('%s by the holder records it', (_, command, event) => spec(RUNNING).when(command).then([event]));
    it.each(progress('w2'))('refuses %s from another worker', (_, command) =>
      spec(RUNNING).when(command).thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));

    describe('progress is idempotent for resume', () => {
      it('a plan already recorded decides nothing, even a different one', () =>
        spec([...RUNNING, planned])
          .when({ type: 'RecordPlan', worker_id: 'w1', subqueries: ['other'], pages_target: 9 })
          .then([]));
      it('a SERP page already recorded decides nothing', () =>
        spec([...RUNNING, serp]).when(record('RecordSerpPage')).then([]));
      it('the next page of the same subquery is recorded', () =>
        spec([...RUNNING, serp])
          .when({ type: 'RecordSerpPage', worker_id: 'w1', subquery: 'q1', page: 2, hits: 3 })
          .then([{ type: 'SerpPageFetched', data: { subquery: 'q1', page: 2, hits: 3 } }]));
      it('a URL already fetched ok decides nothing', () =>
        spec([...RUNNING, pageOk]).when(record('RecordPageFetched')).then([]));
      it('a URL fetched ok is not downgraded by a later failure', () =>
        spec([...RUNNING, pageOk])
          .when({ type: 'RecordPageFetched', worker_id: 'w1', url: 'https://a.example/x', ok: false, title: null, error: 'x' })
          .then([]));
      it('a URL that failed again decides nothing', () =>
        spec([...RUNNING, pageFailed])
          .when({ type: 'RecordPageFetched', worker_id: 'w1', url: 'https://a.example/x', ok: false, title: null, error: 'timeout' })
          .then([]));
      it('a URL that failed may be recorded ok later', () =>
        spec([...RUNNING, pageFailed]).when(record('RecordPageFetched')).then([pageOk]));
      it('a finding for a graded subquery decides nothing', () =>
        spec([...RUNNING, graded])
          .when({ type: 'RecordFinding', worker_id: 'w1', finding: { ...finding, answer: 'other' } })
          .then([]));
      it('identical results decide nothing', () => spec([...RUNNING, merged]).when(record('RecordResults')).then([]));
      it('results that changed are recorded', () =>
        spec([...RUNNING, merged])
          .when({ type: 'RecordResults', worker_id: 'w1', results: [hit('https://a.example/x', 2)], reranked: false })
          .then([{ type: 'ResultsMerged', data: { results: [hit('https://a.example/x', 2)], reranked: false } }]));
      it('the same results re-ranked are recorded', () =>
        spec([...RUNNING, merged])
          .when({ type: 'RecordResults', worker_id: 'w1', results: [hit('https://a.example/x')], reranked: true })
          .then([{ type: 'ResultsMerged', data: { results: [hit('https://a.example/x')], reranked: true } }]));
      it('a report already written decides nothing', () =>
        spec([...RUNNING, reported]).when({ ...record('RecordReport'), report: 'other' } as SearchRunCommand).then([]));
    });

    it('refuses to complete before a report', () => spec(RUNNING).when(complete()).thenThrows({ refusal: 'conflict', message: 'no report yet' }));
    it('completes with a report, charging one credit per query', () =>
      spec([...RUNNING, reported]).when(complete()).then([charged, completed]));
    it('records a page read rendered in the browser, and charges each such read sku_render on completion (a failed one too)', () => {
      const rendered = (ok: boolean): SearchRunEvent => ({ type: 'PageFetched', data: { ...(ok ? pageOk : pageFailed).data, url: `https://a.example/${ok}`, rendered: true } as never });
      spec(RUNNING)
        .when({ type: 'RecordPageFetched', worker_id: 'w1', url: 'https://a.example/true', ok: true, title: 'A', error: null, rendered: true })
        .then([rendered(true)]);
      const withRenders: SearchRunEvent = {
        type: 'CreditsCharged',
        data: { team_id: 'acme', request_id: 's1', items: [{ sku: 'sku_deep_search', quantity: 2, credits: 2 }, { sku: 'sku_render', quantity: 2, credits: 2 }], credits: 4, at: T0 },
      };
      spec([...RUNNING, pageOk, rendered(true), rendered(false), reported]).when(complete()).then([withRenders, completed]);
    });
    it('refuses completion by another worker', () =>
      spec([...RUNNING, reported]).when(complete('w2')).thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it('its worker fails it', () => spec(RUNNING).when(fail('w1')).then([failed]));
    it('refuses a failure from another worker while the lease is live', () =>
      spec(RUNNING).when(fail('w2')).thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it('refuses a system failure while the lease is live', () => spec(RUNNING).when(fail()).thenThrows({ refusal: 'conflict' }));
    it('cancelling only requests it: the worker confirms', () => spec(RUNNING).when(cancel).then([cancelRequested]));
    it('confirming a cancel nobody asked for decides nothing', () => spec(RUNNING).when(confirm('w1')).then([]));
  });

  describe('when running with cancel requested', () => {
    it('requesting again decides nothing', () => spec(CANCELLING).when(request).then([]));
    it('refuses to start it again, even by its worker', () =>
      spec(CANCELLING).when(start('w1')).thenThrows({ refusal: 'conflict', message: /cancelled/ }));
    it('refuses a takeover after the lease ran out: confirm instead', () =>
      expired(CANCELLING).when(start('w2')).thenThrows({ refusal: 'conflict', message: /confirm/ }));
    it('the holder still heartbeats while it winds down', () =>
      spec(CANCELLING).when(heartbeat()).then([{ type: 'SearchRunHeartbeat', data: { worker_id: 'w1', lease_until: LEASE_END } }]));
    it.each(progress())('refuses %s: work stops at once', (_, command) =>
      spec(CANCELLING).when(command).thenThrows({ refusal: 'conflict', message: 'run is cancelled' }));
    it('refuses to complete, even with a report', () =>
      spec([requested, started, reported, cancelRequested]).when(complete()).thenThrows({ refusal: 'conflict', message: /cancelled/ }));
    it('a failure while winding down ends it cancelled, as the caller was told', () =>
      spec(CANCELLING).when(fail('w1')).then([cancelled]));
    it('cancelling again decides nothing', () => spec(CANCELLING).when(cancel).then([]));
    it('its worker confirms the cancel', () => spec(CANCELLING).when(confirm('w1')).then([cancelled]));
    it('refuses a confirmation from another worker while the lease is live', () =>
      spec(CANCELLING).when(confirm('w2')).thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it('refuses a system confirmation while the lease is live', () => spec(CANCELLING).when(confirm()).thenThrows({ refusal: 'conflict' }));
    it('recovery confirms once the lease ran out', () =>
      expired(CANCELLING).when(confirm()).then([{ type: 'SearchRunCancelled', data: { cancelled_at: LEASE_END } }]));
  });

  describe('when lease expired', () => {
    const resumed: SearchRunEvent = {
      type: 'SearchRunStarted',
      data: { worker_id: 'w2', lease_until: '2026-01-01T00:00:30.000Z', started_at: LEASE_END, resumed: true },
    };
    it('requesting again decides nothing', () => expired(RUNNING).when(request).then([]));
    it('another worker takes it over (now == lease_until is expired)', () => expired(RUNNING).when(start('w2')).then([resumed]));
    it('its own worker starting again decides nothing', () => expired(RUNNING).when(start('w1')).then([]));
    it('the holder may still renew while nobody took over', () =>
      expired(RUNNING)
        .when(heartbeat('w1'))
        .then([{ type: 'SearchRunHeartbeat', data: { worker_id: 'w1', lease_until: '2026-01-01T00:00:30.000Z' } }]));
    it('refuses a heartbeat from a worker that has not taken over', () => expired(RUNNING).when(heartbeat('w2')).thenThrows({ refusal: 'conflict' }));
    it.each(progress())('a slow holder still records %s', (_, command, event) => expired(RUNNING).when(command).then([event]));
    it.each(progress('w2'))('refuses %s from a worker that has not taken over', (_, command) =>
      expired(RUNNING).when(command).thenThrows({ refusal: 'conflict', message: /held by worker w1/ }));
    it('the slow holder may complete', () => expired([...RUNNING, reported]).when(complete('w1')).then([
      { ...charged, data: { ...charged.data, at: LEASE_END } } as SearchRunEvent,
      { type: 'SearchRunCompleted', data: { completed_at: LEASE_END } },
    ]));
    it('refuses completion by a worker that has not taken over', () =>
      expired([...RUNNING, reported]).when(complete('w2')).thenThrows({ refusal: 'conflict' }));
    it('recovery (the system) fails it', () =>
      expired(RUNNING).when(fail()).then([{ type: 'SearchRunFailed', data: { error: 'boom', failed_at: LEASE_END } }]));
    it('cancelling requests it', () =>
      expired(RUNNING).when(cancel).then([{ type: 'SearchRunCancelRequested', data: { requested_at: LEASE_END } }]));
    it('confirming a cancel nobody asked for decides nothing', () => expired(RUNNING).when(confirm()).then([]));

    describe('after a takeover', () => {
      const TAKEN = [...RUNNING, planned, serp, takenOver];
      it('the new holder re-recording old facts decides nothing', () => {
        spec(TAKEN).when(record('RecordPlan', 'w2')).then([]);
        spec(TAKEN).when(record('RecordSerpPage', 'w2')).then([]);
      });
      it('the new holder records what is new', () => spec(TAKEN).when(record('RecordFinding', 'w2')).then([graded]));
      it('the old worker has lost the lease', () => spec(TAKEN).when(heartbeat('w1')).thenThrows({ refusal: 'conflict', message: /held by worker w2/ }));
      it('the old worker can no longer record', () =>
        spec(TAKEN).when(record('RecordFinding', 'w1')).thenThrows({ refusal: 'conflict', message: /held by worker w2/ }));
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
    it('refuses to start', () => spec(given).when(start('w2')).thenThrows({ refusal: 'conflict', message: `run is ${terminal}` }));
    it('a late heartbeat decides nothing', () => spec(given).when(heartbeat()).then([]));
    it.each(progress())('refuses %s', (_, command) => spec(given).when(command).thenThrows({ refusal: 'conflict', message: `run is ${terminal}` }));
    it('failing decides nothing', () => spec(given).when(fail()).then([]));
    it('confirming a cancel decides nothing', () => spec(given).when(confirm('w1')).then([]));
    if (terminal === 'completed') {
      it('completing again decides nothing', () => spec(given).when(complete()).then([]));
      it('refuses to cancel', () => spec(given).when(cancel).thenThrows({ refusal: 'conflict', message: 'cannot cancel a completed run' }));
    } else if (terminal === 'failed') {
      it('refuses to complete', () => spec(given).when(complete()).thenThrows({ refusal: 'conflict', message: 'run is failed' }));
      it('refuses to cancel', () => spec(given).when(cancel).thenThrows({ refusal: 'conflict', message: 'cannot cancel a failed run' }));
    } else {
      it('refuses to complete', () => spec(given).when(complete()).thenThrows({ refusal: 'conflict', message: 'run is cancelled' }));
      it('cancelling again decides nothing', () => spec(given).when(cancel).then([]));
    }
  });

  describe('evolve', () => {
    const evolve = searchRunDecider.evolve;
    it('ignores events before the request', () => expect(evolve(searchRunDecider.initialState, started)).toEqual({ status: 'absent' }));
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

describe('search run view', () => {
  const view = searchRunView;

  it('a run that does not exist is not found (a 404)', () => expect(() => view([])).toThrow(expect.objectContaining({ refusal: 'not_found' })));

  it('queued: the request, nothing gathered yet', () =>
    expect(view(QUEUED)).toEqual({
      search_id: 's1',
      status: 'queued',
      queries: ['solar storage', 'grid batteries'],
      limit: 10,
      depth: 'deep',
      country: 'us',
      language: 'en',
      createdAt: T0,
      completedAt: null,
      credits: 0,
      results: [],
      pagesFetched: 0,
      pagesTarget: 1,
      error: null,
      report: null,
      findings: null,
      sources: null,
      usage: null,
      prompt: null,
      reranked: false,
      usage_items: [],
    }));

  it('reads the same from the state as from the events', () =>
    expect(view(fold(searchRunDecider, [...RUNNING, planned, merged]))).toEqual(view([...RUNNING, planned, merged])));

  describe('while running', () => {
    it('results fill as they accumulate (the latest merge)', () => {
      expect(view([...RUNNING, merged]).results).toEqual([hit('https://a.example/x')]);
      const next: SearchRunEvent = { type: 'ResultsMerged', data: { results: [hit('https://b.example'), hit('https://a.example/x')], reranked: true } };
      expect(view([...RUNNING, merged, next])).toMatchObject({ results: next.data.results, reranked: true, status: 'running' });
    });
    it('counts distinct SERP pages against the plan', () => {
      const page2: SearchRunEvent = { type: 'SerpPageFetched', data: { subquery: 'q2', page: 1, hits: 0 } };
      expect(view([...RUNNING, planned, serp, serp, page2])).toMatchObject({ pagesFetched: 2, pagesTarget: 4 });
    });
    it('report, findings, sources stay null with a report written; usage shows it', () =>
      expect(view([...RUNNING, reported])).toMatchObject({ report: null, findings: null, sources: null, usage, credits: 0, usage_items: [], completedAt: null }));
  });

  it('completed: report, findings, sources, usage, one credit per query', () =>
    expect(view(COMPLETED)).toMatchObject({
      status: 'completed',
      completedAt: T0,
      report: '# R [1]',
      findings: [finding],
      sources: [source],
      usage,
      credits: 2,
      usage_items: [{ sku: 'sku_deep_search', quantity: 2, credits: 2 }],
      error: null,
    }));

  it('failed: the error, no report, no credits, results kept', () =>
    expect(view([...RUNNING, merged, reported, failed])).toMatchObject({
      status: 'failed',
      error: 'boom',
      completedAt: T0,
      results: [hit('https://a.example/x')],
      report: null,
      findings: null,
      sources: null,
      credits: 0,
      usage_items: [],
    }));

  describe('cancel', () => {
    const asked: SearchRunEvent = { type: 'SearchRunCancelRequested', data: { requested_at: T_CANCEL } };
    it('reads cancelled as soon as it is requested, results kept', () =>
      expect(view([...RUNNING, merged, asked])).toMatchObject({ status: 'cancelled', completedAt: T_CANCEL, results: [hit('https://a.example/x')], error: null, credits: 0 }));
    it('the confirmation does not move completedAt', () =>
      expect(view([...RUNNING, asked, { type: 'SearchRunCancelled', data: { cancelled_at: T_END } }]).completedAt).toBe(T_CANCEL));
    it('a queued run cancelled', () => expect(view([requested, cancelRequested, cancelled])).toMatchObject({ status: 'cancelled', completedAt: T0 }));
  });

  it.each([
    ['queued', QUEUED],
    ['running', RUNNING],
    ['cancelling', CANCELLING],
    ['completed', COMPLETED],
    ['failed', FAILED],
    ['cancelled', CANCELLED],
  ])('%s: depth is always deep; error only when failed', (status, events) => {
    expect(view(events).depth).toBe('deep');
    expect(view(events).error).toBe(status === 'failed' ? 'boom' : null);
  });

  describe('list item', () => {
    it('the queries joined when there is no prompt', () =>
      expect(searchRunListItem([...RUNNING, merged])).toEqual({
        id: 's1',
        query: 'solar storage; grid batteries',
        status: 'running',
        createdAt: T0,
        completedAt: null,
        resultCount: 1,
      }));
    it('the prompt when there is one', () => {
      const withPrompt: SearchRunEvent = { ...requested, data: { ...requested.data, params: { ...params, prompt: 'Why?' } } } as SearchRunEvent;
      expect(searchRunListItem([withPrompt, ...COMPLETED.slice(1)])).toMatchObject({ query: 'Why?', status: 'completed', completedAt: T0 });
    });
  });
});
