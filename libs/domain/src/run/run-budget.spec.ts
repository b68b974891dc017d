import { findAllDecider } from '../findall/findall.decider';
import type { FindAllEvent, FindAllParams } from '../findall/findall.events';
import { findAllView } from '../findall/findall.view';
import { lineItem } from '../pricing';
import { searchRunDecider } from '../search-run/search-run.decider';
import type { SearchRunEvent } from '../search-run/search-run.events';
import { specFor, testContext } from '../testing/given-when-then';
import { params as deepParams, reported, started, T0 } from '../testing/search-run.fixtures';
import { chargeWithin } from './run-budget';

describe('a run budget (max_credits)', () => {
  describe('chargeWithin', () => {
    it('keeps a charge that fits whole, and says nothing was cut', () => {
      const items = [lineItem('sku_deep_search', 3), lineItem('sku_render', 1)];
      expect(chargeWithin(items, 4)).toEqual({ items, cut: false });
      expect(chargeWithin(items, Infinity)).toEqual({ items, cut: false });
    });

    it('cuts to whole units in order, never a credit past the room', () => {
      const items = [lineItem('sku_deep_search', 6), lineItem('sku_render', 2)];
      expect(chargeWithin(items, 3)).toEqual({ items: [lineItem('sku_deep_search', 3)], cut: true });
      expect(chargeWithin(items, 7)).toEqual({
        items: [lineItem('sku_deep_search', 6), lineItem('sku_render', 1)],
        cut: true,
      });
      expect(chargeWithin(items, 0)).toEqual({ items: [], cut: true });
      // a SKU priced per ten units: 25 units cost 3 credits, 2 credits buy 20 of them
      expect(chargeWithin([lineItem('sku_contents_text', 25)], 2)).toEqual({
        items: [lineItem('sku_contents_text', 20)],
        cut: true,
      });
    });
  });

  describe('a deep run, charged on completion', () => {
    const spec = specFor(searchRunDecider, () => testContext(T0));
    const budgeted = (max_credits: number | null): SearchRunEvent => ({
      type: 'SearchRunRequested',
      data: {
        search_id: 's1',
        team_id: 'acme',
        key_id: 'k1',
        request_id: 'r1',
        params: { ...deepParams, queries: ['a', 'b', 'c', 'd', 'e'], max_credits },
        requested_at: T0,
      },
    });

    it('is charged its budget, not its five queries, and ends budget_exhausted', () => {
      spec([budgeted(3), started, reported])
        .when({ type: 'CompleteRun', worker_id: 'w1' })
        .then([
          {
            type: 'CreditsCharged',
            data: { team_id: 'acme', request_id: 's1', items: [lineItem('sku_deep_search', 3)], credits: 3, at: T0 },
          },
          { type: 'SearchRunCompleted', data: { completed_at: T0, termination_reason: 'budget_exhausted' } },
        ]);
    });

    it('a budget it stays within changes nothing', () => {
      spec([budgeted(5), started, reported])
        .when({ type: 'CompleteRun', worker_id: 'w1' })
        .then([
          {
            type: 'CreditsCharged',
            data: { team_id: 'acme', request_id: 's1', items: [lineItem('sku_deep_search', 5)], credits: 5, at: T0 },
          },
          { type: 'SearchRunCompleted', data: { completed_at: T0 } },
        ]);
    });

    it('is cut to what its key may still spend (credit_limit), the smaller of the two budgets', () => {
      spec([budgeted(null), started, reported])
        .when({ type: 'CompleteRun', worker_id: 'w1', credit_limit: 2 })
        .then([
          {
            type: 'CreditsCharged',
            data: { team_id: 'acme', request_id: 's1', items: [lineItem('sku_deep_search', 2)], credits: 2, at: T0 },
          },
          { type: 'SearchRunCompleted', data: { completed_at: T0, termination_reason: 'budget_exhausted' } },
        ]);
      spec([budgeted(1), started, reported])
        .when({ type: 'CompleteRun', worker_id: 'w1', credit_limit: 4 })
        .then([
          {
            type: 'CreditsCharged',
            data: { team_id: 'acme', request_id: 's1', items: [lineItem('sku_deep_search', 1)], credits: 1, at: T0 },
          },
          { type: 'SearchRunCompleted', data: { completed_at: T0, termination_reason: 'budget_exhausted' } },
        ]);
      // nothing left: charged nothing more, and still completed
      spec([budgeted(null), started, reported])
        .when({ type: 'CompleteRun', worker_id: 'w1', credit_limit: 0 })
        .then([{ type: 'SearchRunCompleted', data: { completed_at: T0, termination_reason: 'budget_exhausted' } }]);
    });

    it('refuses a budget that is not a whole number of credits from 1 to 1,000,000', () => {
      for (const max_credits of [0, -1, 1.5, 1_000_001])
        spec([])
          .when({
            type: 'RequestRun',
            run_id: 's1',
            team_id: 'acme',
            key_id: 'k1',
            request_id: 'r1',
            params: { ...deepParams, max_credits },
          })
          .thenThrows({ refusal: 'invalid', message: /max_credits must be 1 to 1000000/ });
    });
  });

  describe('a FindAll run, charged as it goes', () => {
    const spec = specFor(findAllDecider, () => testContext(T0));
    const params: FindAllParams = {
      query: 'robotics companies',
      fields: null,
      output_schema: null,
      limit: 10,
      webhook: null,
      max_credits: 2,
    };
    const requested: FindAllEvent = {
      type: 'FindAllRunRequested',
      data: { findall_id: 'f1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params, requested_at: T0 },
    };
    const startedF: FindAllEvent = {
      type: 'FindAllRunStarted',
      data: { worker_id: 'w1', lease_until: '2026-01-01T00:00:15.000Z', started_at: T0, resumed: false },
    };
    const query = (q: string): FindAllEvent => ({ type: 'FindAllQueryGenerated', data: { query: q } });
    const charge: FindAllEvent = {
      type: 'CreditsCharged',
      data: { team_id: 'acme', request_id: 'f1', items: [lineItem('sku_findall_query', 1)], credits: 1, at: T0 },
    };

    it('takes steps while they fit, then refuses the one that would pass the budget (nothing appended)', () => {
      spec([requested, startedF, query('a'), charge])
        .when({ type: 'RecordQuery', query: 'b', worker_id: 'w1' })
        .then([query('b'), charge]);
      spec([requested, startedF, query('a'), charge, query('b'), charge])
        .when({ type: 'RecordQuery', query: 'c', worker_id: 'w1' })
        .thenThrows({
          refusal: 'conflict',
          message: /costs 1 credits and the run's budget has 0 left \(max_credits 2\)/,
        });
    });

    it('stopped on its budget, it completes unfinished, budget_exhausted in its view, and may not be charged more', () => {
      const history = [requested, startedF, query('a'), charge, query('b'), charge];
      spec(history)
        .when({ type: 'CompleteRun', worker_id: 'w1', termination_reason: 'budget_exhausted' })
        .then([{ type: 'FindAllRunCompleted', data: { completed_at: T0, termination_reason: 'budget_exhausted' } }]);
      const done: FindAllEvent = {
        type: 'FindAllRunCompleted',
        data: { completed_at: T0, termination_reason: 'budget_exhausted' },
      };
      const state = [...history, done].reduce(findAllDecider.evolve, findAllDecider.initialState);
      const view = findAllView(state);
      expect(view.status).toMatchObject({ status: 'completed', termination_reason: 'budget_exhausted' });
      expect(view.credits).toBe(2);
    });
  });
});
