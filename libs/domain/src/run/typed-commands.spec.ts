import { searchRunDecider } from '../search-run/search-run.decider';
import { lifecycle } from './run.events';
import { crawlRuns } from '../crawl/crawl.kind';
import { testContext } from '../testing/given-when-then';

/**
 * Commands and events are typed per kind: the `@ts-expect-error` lines below are checked by
 * `tsc --noEmit` (npm test runs it), so each must stay a compile error; the assertions check the
 * guards at run time.
 */
describe('typed commands and events', () => {
  const absent = searchRunDecider.initialState;

  it('a command missing a field, or of a type the kind lacks, does not compile', () => {
    const context = testContext();
    // @ts-expect-error StartRun needs lease_seconds
    expect(() => searchRunDecider.decide({ type: 'StartRun', worker_id: 'w1' }, absent, context)).toThrow();
    // @ts-expect-error no kind records a made-up fact
    expect(() => searchRunDecider.decide({ type: 'RecordWeather', worker_id: 'w1' }, absent, context)).toThrow();
    // @ts-expect-error a crawl's view is not a search run's
    expect(() => crawlRuns.view(absent)).toThrow();
  });

  it("a lifecycle event's data is typed by the kind's prefix, and the guard narrows a stored event by its name", () => {
    const life = lifecycle<'SearchRun', 'search_id', unknown>('SearchRun');
    const started = life.event('started', { worker_id: 'w1', lease_until: 'later', started_at: 'now', resumed: false });
    expect(started.type).toBe('SearchRunStarted');
    // @ts-expect-error a heartbeat carries no `resumed`
    life.event('heartbeat', { worker_id: 'w1', lease_until: 'later', resumed: true });
    const stored: { type: string; data: unknown } = started;
    expect(life.is(stored, 'started') && stored.data.worker_id).toBe('w1');
    expect(life.is(stored, 'heartbeat')).toBe(false);
    expect(lifecycle('TaskRun').is(stored, 'started')).toBe(false);
  });
});
