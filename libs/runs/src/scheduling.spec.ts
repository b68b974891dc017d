import { chatRuns, findAllRuns, type RunKind, searchRuns } from '@app/domain';
import type { RunInfo } from './run-registry';
import { planTick, type SchedulingInput, type TickAction } from './scheduling';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const LEASE_MS = 30_000;

let position = 0n;
/** A run as the registry holds it; queued unless said otherwise, requested in call order. */
const run = (id: string, over: Partial<RunInfo> = {}): RunInfo => ({
  kind: searchRuns,
  stream: `search-${id}`,
  run_id: id,
  team_id: 'acme',
  key_id: 'key',
  status: 'queued',
  requested_at: ++position,
  worker_id: null,
  lease_until: 0,
  seen_at: 0,
  cancel_requested: false,
  ...over,
});
/** Held by a worker whose lease ran out a while ago and who has been silent for two leases. */
const abandoned = (id: string, over: Partial<RunInfo> = {}) =>
  run(id, { status: 'running', worker_id: 'dead', lease_until: NOW - 1, seen_at: 1_000, ...over });

/** given(runs).when(worker situation).then(actions), for the pure scheduling decision. */
const given = (runs: RunInfo[]) => ({
  when: (over: Partial<SchedulingInput> = {}) => ({
    then: (expected: [TickAction['type'], string][]) => {
      const input: SchedulingInput = {
        runs,
        now: NOW,
        monotonicNow: 1_000 + 2 * LEASE_MS,
        leaseMs: LEASE_MS,
        active: new Set(),
        works: (kind: RunKind) => kind !== chatRuns,
        maxLocalRuns: 8,
        maxConcurrentRunsPerTeam: 2,
        ...over,
      };
      expect(planTick(input).map((action) => [action.type, action.run.run_id])).toEqual(expected);
    },
  }),
});

describe('planTick: the run worker scheduling decision', () => {
  it('starts queued runs in request order', () => {
    const [a, b] = [run('a'), run('b')];
    given([b, a])
      .when()
      .then([
        ['start', 'a'],
        ['start', 'b'],
      ]);
  });

  it("starts a team's single runs before its task groups' runs asked for earlier, and other teams' alike", () => {
    const grouped = Array.from({ length: 5 }, (_, i) => run(`g${i}`, { in_group: true }));
    const single = run('single');
    const other = run('other', { team_id: 'beta' });
    given([...grouped, single, other])
      .when()
      .then([
        ['start', 'single'],
        ['start', 'other'],
        ['start', 'g0'],
      ]);
  });

  it("leaves one of a team's slots, and one of the worker's, to runs asked for one by one", () => {
    const grouped = Array.from({ length: 6 }, (_, i) => run(`t${i}`, { in_group: true }));
    given(grouped)
      .when({ maxConcurrentRunsPerTeam: 4 })
      .then([
        ['start', 't0'],
        ['start', 't1'],
        ['start', 't2'],
      ]);
    // Three group runs at work here: the team's single run still starts (its fourth slot).
    const working = grouped.slice(0, 3).map((r) => ({ ...r, status: 'running' as const, lease_until: NOW + LEASE_MS }));
    const single = run('s');
    given([...working, ...grouped.slice(3), single])
      .when({ maxConcurrentRunsPerTeam: 4, active: new Set(working.map((r) => r.stream)) })
      .then([['start', 's']]);
    // Two teams' groups on a worker of 3 runs: 2 group runs, one slot left for another team's run.
    const beta = Array.from({ length: 3 }, (_, i) => run(`b${i}`, { in_group: true, team_id: 'beta' }));
    given([...grouped.slice(0, 2), ...beta])
      .when({ maxConcurrentRunsPerTeam: 4, maxLocalRuns: 3 })
      .then([
        ['start', 't0'],
        ['start', 't1'],
      ]);
  });

  it('holds a team to its concurrent runs, counting the ones running elsewhere, and lets other teams through', () => {
    given([
      run('held', { status: 'running', worker_id: 'w2', lease_until: NOW + LEASE_MS, seen_at: 1_000 + 2 * LEASE_MS }),
      run('a'),
      run('b'),
      run('c', { team_id: 'other' }),
    ])
      .when({ maxConcurrentRunsPerTeam: 2 })
      .then([
        ['start', 'a'],
        ['start', 'c'],
      ]);
  });

  it('starts nothing past its own capacity, counting the runs it already works', () => {
    given([run('a'), run('b')])
      .when({ active: new Set(['search-x']), maxLocalRuns: 2, maxConcurrentRunsPerTeam: 10 })
      .then([['start', 'a']]);
  });

  it('resumes a run whose lease lapsed and whose holder fell silent, before starting queued ones', () => {
    given([run('queued'), abandoned('lost')])
      .when()
      .then([
        ['resume', 'lost'],
        ['start', 'queued'],
      ]);
  });

  it('never takes a run whose holder was heard from within a lease, even with a lapsed wall-clock lease', () => {
    given([abandoned('alive', { seen_at: 1_000 + 2 * LEASE_MS - 5_000 })])
      .when()
      .then([]);
  });

  it('leaves a run whose lease is still running alone', () => {
    given([abandoned('leased', { lease_until: NOW + 1 })])
      .when()
      .then([]);
  });

  it('confirms the cancel of an abandoned run instead of resuming it, even with no room to work', () => {
    given([abandoned('cancelled', { cancel_requested: true })])
      .when({ maxLocalRuns: 0 })
      .then([['confirm-cancel', 'cancelled']]);
  });

  it('takes back a run handed back at once (its holder was last seen at -Infinity)', () => {
    given([abandoned('released', { worker_id: null, lease_until: NOW - 10, seen_at: -Infinity })])
      .when({ monotonicNow: 5 })
      .then([['resume', 'released']]);
  });

  it('skips kinds it has no executor for, and runs it works already', () => {
    given([
      run('chat', { kind: chatRuns, stream: 'chat-1' }),
      abandoned('mine', { stream: 'search-mine' }),
      run('findall', { kind: findAllRuns, stream: 'findall-1' }),
    ])
      .when({ active: new Set(['search-mine']) })
      .then([['start', 'findall']]);
  });
});
