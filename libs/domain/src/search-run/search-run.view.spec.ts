/** The search run's view and list item, folded from a run's events in each of its states. */
import { fold } from '../decider';
import { searchRunDecider } from './search-run.decider';
import type { SearchRunEvent } from './search-run.events';
import { searchRunListItem, searchRunView } from './search-run.view';
import {
  T0,
  T_CANCEL,
  T_END,
  params,
  finding,
  source,
  usage,
  hit,
  requested,
  planned,
  serp,
  merged,
  reported,
  failed,
  cancelRequested,
  cancelled,
  QUEUED,
  RUNNING,
  CANCELLING,
  COMPLETED,
  FAILED,
  CANCELLED,
} from '../testing/search-run.fixtures';

describe('search run view', () => {
  const view = searchRunView;

  it('a run that does not exist is not found (a 404)', () =>
    expect(() => view([])).toThrow(expect.objectContaining({ refusal: 'not_found' })));

  it('queued: the request, nothing gathered yet', () =>
    expect(view(QUEUED)).toEqual({
      search_id: 's1',
      status: 'queued',
      interaction_id: 's1',
      previous_interaction_id: null,
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
      termination_reason: null,
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
      const next: SearchRunEvent = {
        type: 'ResultsMerged',
        data: { results: [hit('https://b.example'), hit('https://a.example/x')], reranked: true },
      };
      expect(view([...RUNNING, merged, next])).toMatchObject({
        results: next.data.results,
        reranked: true,
        status: 'running',
      });
    });
    it('counts distinct SERP pages against the plan', () => {
      const page2: SearchRunEvent = { type: 'SerpPageFetched', data: { subquery: 'q2', page: 1, hits: 0 } };
      expect(view([...RUNNING, planned, serp, serp, page2])).toMatchObject({ pagesFetched: 2, pagesTarget: 4 });
    });
    it('report, findings, sources stay null with a report written; usage shows it', () =>
      expect(view([...RUNNING, reported])).toMatchObject({
        report: null,
        findings: null,
        sources: null,
        usage,
        credits: 0,
        usage_items: [],
        completedAt: null,
      }));
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
      expect(view([...RUNNING, merged, asked])).toMatchObject({
        status: 'cancelled',
        completedAt: T_CANCEL,
        results: [hit('https://a.example/x')],
        error: null,
        credits: 0,
      }));
    it('the confirmation does not move completedAt', () =>
      expect(view([...RUNNING, asked, { type: 'SearchRunCancelled', data: { cancelled_at: T_END } }]).completedAt).toBe(
        T_CANCEL,
      ));
    it('a queued run cancelled', () =>
      expect(view([requested, cancelRequested, cancelled])).toMatchObject({ status: 'cancelled', completedAt: T0 }));
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
      const withPrompt: SearchRunEvent = {
        ...requested,
        data: { ...requested.data, params: { ...params, prompt: 'Why?' } },
      } as SearchRunEvent;
      expect(searchRunListItem([withPrompt, ...COMPLETED.slice(1)])).toMatchObject({
        query: 'Why?',
        status: 'completed',
        completedAt: T0,
      });
    });
  });
});
