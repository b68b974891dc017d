import type { RecordedEvent } from '@app/eventstore';
import { PUBLIC_EVENT_NAMES, searchRunDecider, type SearchRunEvent, type SearchRunState, searchRunView } from '@app/domain/search-run';
import type { RunStreamSpec } from './run-stream';

/** Stored search-run events as the public stream events of API.md ("Streams"). */
export const searchRunStreamSpec: RunStreamSpec<SearchRunState> = {
  initialState: searchRunDecider.initialState,
  evolve: (state, event) => searchRunDecider.evolve(state, event as SearchRunEvent),
  terminal: new Set(['run.completed', 'run.failed', 'run.cancelled']),
  publish(event: RecordedEvent, state: SearchRunState) {
    const name = PUBLIC_EVENT_NAMES[event.type as SearchRunEvent['type']];
    if (!name) return undefined;
    const view = searchRunView(state);
    const data = event.data as Record<string, unknown>;
    switch (name) {
      case 'run.queued':
        return { event: name, data: { search_id: view.search_id, status: 'queued', queries: view.queries } };
      case 'run.started':
        return { event: name, data: { search_id: view.search_id, status: 'running', resumed: data.resumed === true } };
      case 'plan.created':
        return { event: name, data: { subqueries: data.subqueries, pagesTarget: view.pagesTarget } };
      case 'serp.page':
        return { event: name, data: { subquery: data.subquery, page: data.page, pagesFetched: view.pagesFetched, pagesTarget: view.pagesTarget } };
      case 'page.fetched':
        return { event: name, data: { url: data.url, ok: data.ok } };
      case 'finding.graded':
        return { event: name, data: data.finding };
      case 'results.updated':
        return { event: name, data: { count: view.results.length, reranked: view.reranked } };
      case 'run.completed':
        return { event: name, data: view };
      case 'run.failed':
        return { event: name, data: { search_id: view.search_id, error: view.error } };
      default:
        return { event: name, data: { search_id: view.search_id, status: view.status } };
    }
  },
};
