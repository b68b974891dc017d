import type { WithoutWorker } from '../run/run-kind';
import { specFor, testContext } from '../testing/given-when-then';
import { findAllDecider, type FindAllCommand, findAllLimit, type FindAllProgressCommand } from './findall.decider';
import type { FindAllEvent, FindAllParams } from './findall.events';
import { findAllView } from './findall.view';

const T0 = '2026-01-01T00:00:00.000Z';
const spec = specFor(findAllDecider, () => testContext(T0));
const params: FindAllParams = {
  query: 'robotics companies founded after 2015',
  fields: ['city'],
  output_schema: null,
  limit: 2,
  webhook: null,
};
const requested: FindAllEvent = {
  type: 'FindAllRunRequested',
  data: { findall_id: 'f1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params, requested_at: T0 },
};
const started: FindAllEvent = {
  type: 'FindAllRunStarted',
  data: { worker_id: 'w1', lease_until: '2026-01-01T00:00:15.000Z', started_at: T0, resumed: false },
};
const charged = (sku: string): FindAllEvent => ({
  type: 'CreditsCharged',
  data: { team_id: 'acme', request_id: 'f1', items: [{ sku, quantity: 1, credits: 1 }], credits: 1, at: T0 },
});
const found = (id: string, url: string): FindAllEvent => ({
  type: 'FindAllCandidateFound',
  data: { candidate_id: id, name: id, url, description: '' },
});
const checked = (id: string, match_status: 'matched' | 'unmatched'): FindAllEvent => ({
  type: 'FindAllCandidateChecked',
  data: { candidate_id: id, match_status, reasons: [], output: { city: 'Berlin' }, basis: [] },
});
/** A progress command as the lease holder w1 records it (typed: a wrong field does not compile). */
const record = (c: WithoutWorker<FindAllProgressCommand>): FindAllCommand => ({ ...c, worker_id: 'w1' });
const RUNNING = [requested, started];
const terminated: FindAllEvent = { type: 'FindAllTerminated', data: { reason: 'limit_reached' } };
const completed: FindAllEvent = { type: 'FindAllRunCompleted', data: { completed_at: T0 } };

const REQUESTED_QUERY: FindAllEvent = { type: 'FindAllQueryGenerated', data: { query: 'robotics companies' } };
const reopenedBy = (detail: Record<string, unknown>): FindAllEvent => ({
  type: 'FindAllRunReopened',
  data: { team_id: 'acme', reason: 'extend', detail, reopened_at: T0 },
});
const check = (match_status: 'matched' | 'unmatched') =>
  record({ type: 'RecordCheck', candidate_id: 'c1', match_status, reasons: [], output: { city: 'Berlin' }, basis: [] });

describe('FindAll decider', () => {
  it('charges a generated query as it happens', () => {
    spec(RUNNING)
      .when(record({ type: 'RecordQuery', query: 'robotics companies' }))
      .then([REQUESTED_QUERY, charged('sku_findall_query')]);
  });

  it('records and charges a query once', () => {
    spec([...RUNNING, REQUESTED_QUERY])
      .when(record({ type: 'RecordQuery', query: 'robotics companies' }))
      .then([]);
  });

  it('charges the pages a read rendered in the browser (sku_render) as it happens, once per read', () => {
    const rendered: FindAllEvent = { type: 'FindAllPagesRendered', data: { read_id: 'read1', renders: 2 } };
    const renderCharge: FindAllEvent = {
      type: 'CreditsCharged',
      data: {
        team_id: 'acme',
        request_id: 'f1',
        items: [{ sku: 'sku_render', quantity: 2, credits: 2 }],
        credits: 2,
        at: T0,
      },
    };
    spec(RUNNING)
      .when(record({ type: 'RecordRenders', read_id: 'read1', renders: 2 }))
      .then([rendered, renderCharge]);
    spec([...RUNNING, rendered, renderCharge])
      .when(record({ type: 'RecordRenders', read_id: 'read1', renders: 2 }))
      .then([]);
    spec(RUNNING)
      .when(record({ type: 'RecordRenders', read_id: 'read2', renders: 0 }))
      .then([]);
  });

  it('keeps one candidate per URL', () => {
    spec([...RUNNING, found('c1', 'https://x.test/a')])
      .when(
        record({
          type: 'RecordCandidate',
          candidate_id: 'c2',
          name: 'A GmbH',
          url: 'https://x.test/a',
          description: '',
        }),
      )
      .then([]);
  });

  it('charges a match', () => {
    spec([...RUNNING, found('c1', 'u1')])
      .when(check('matched'))
      .then([checked('c1', 'matched'), charged('sku_findall_match')]);
  });

  it('does not charge a miss', () => {
    spec([...RUNNING, found('c1', 'u1')])
      .when(check('unmatched'))
      .then([checked('c1', 'unmatched')]);
  });

  it('checks a candidate once', () => {
    spec([...RUNNING, found('c1', 'u1'), checked('c1', 'matched')])
      .when(check('unmatched'))
      .then([]);
  });

  it('cannot complete before a termination is recorded', () => {
    spec(RUNNING).when({ type: 'CompleteRun', worker_id: 'w1' }).thenThrows({ refusal: 'conflict' });
  });

  it('completes once terminated, charging nothing more', () => {
    spec([...RUNNING, terminated])
      .when({ type: 'CompleteRun', worker_id: 'w1' })
      .then([completed]);
  });

  it('gives only a completed run more work', () => {
    spec(RUNNING)
      .when({ type: 'ReopenRun', reason: 'extend', detail: { additional_limit: 3 } })
      .thenThrows({ refusal: 'conflict' });
  });

  it('refuses an extend that adds no entities', () => {
    spec([...RUNNING, terminated, completed])
      .when({ type: 'ReopenRun', reason: 'extend', detail: { additional_limit: 0 } })
      .thenThrows({ refusal: 'invalid' });
  });

  it('refuses an enrich without fields', () => {
    spec([...RUNNING, terminated, completed])
      .when({ type: 'ReopenRun', reason: 'enrich', detail: { enrichment_id: 'e1', fields: [] } })
      .thenThrows({ refusal: 'invalid' });
  });

  it('reopens a completed run for an extend', () => {
    spec([...RUNNING, terminated, completed])
      .when({ type: 'ReopenRun', reason: 'extend', detail: { additional_limit: 3 } })
      .then([reopenedBy({ additional_limit: 3 })]);
  });

  it('an extended run is queued again with the higher limit, its matches kept and its termination cleared', () => {
    const state = [
      ...RUNNING,
      found('c1', 'u1'),
      checked('c1', 'matched'),
      charged('sku_findall_match'),
      terminated,
      completed,
      reopenedBy({ additional_limit: 3 }),
    ].reduce(findAllDecider.evolve, findAllDecider.initialState);
    if (state.status === 'absent') throw new Error('absent');
    expect(state.status).toBe('queued');
    expect(findAllLimit(state.params, state.progress)).toBe(5);
    expect(state.progress.termination).toBeNull();
    expect(findAllView(state)).toMatchObject({
      status: 'queued',
      count: 1,
      entities: [{ name: 'c1', url: 'u1', city: 'Berlin' }],
      credits: 1,
      completedAt: null,
    });
  });

  it('the view shows the status object once ended, with metrics and candidates', () => {
    const view = findAllView(
      [
        ...RUNNING,
        found('c1', 'u1'),
        found('c2', 'u2'),
        checked('c1', 'matched'),
        checked('c2', 'unmatched'),
        terminated,
        completed,
      ].reduce(findAllDecider.evolve, findAllDecider.initialState),
    );
    expect(view.status).toEqual({
      status: 'completed',
      is_active: false,
      termination_reason: 'limit_reached',
      metrics: { generated_candidates: 2, matched_candidates: 1 },
    });
    expect(view.candidates!.map((c) => c.candidate_id)).toEqual(['c1', 'c2']);
    expect(view.count).toBe(1);
  });
});

describe('FindAll exclude_list', () => {
  const request = (exclude_list: FindAllParams['exclude_list']): FindAllCommand => ({
    type: 'RequestRun',
    run_id: 'f1',
    team_id: 'acme',
    key_id: 'k1',
    request_id: 'r1',
    params: { ...params, exclude_list },
  });
  it('keeps the list with the request, so an extend reads it too', () =>
    spec([])
      .when(
        request([
          { name: 'Kessa Robotics', url: null },
          { name: null, url: 'https://kessa.test/' },
        ]),
      )
      .then([
        {
          ...requested,
          data: {
            ...(requested.data as object),
            params: {
              ...params,
              exclude_list: [
                { name: 'Kessa Robotics', url: null },
                { name: null, url: 'https://kessa.test/' },
              ],
            },
          },
        } as FindAllEvent,
      ]));
  it('refuses an entry with neither a name nor a url, naming it', () =>
    spec([])
      .when(
        request([
          { name: 'A', url: null },
          { name: ' ', url: null },
        ]),
      )
      .thenThrows({ refusal: 'invalid', message: /exclude_list\[1\] must give a name or a url/ }));
  it('refuses more than 1,000 entries, naming the bound', () =>
    spec([])
      .when(request(Array.from({ length: 1_001 }, (_, i) => ({ name: `n${i}`, url: null }))))
      .thenThrows({ refusal: 'invalid', message: /at most 1000 entries, got 1001/ }));
});
