import { searchRunDecider, type SearchRunEvent, type SearchRunState, searchRunView } from '@app/domain/search-run';
import type { Projection } from '../projection';

/**
 * `search_runs`: one document per deep run, holding the decider's state (the view is computed from
 * it on read, by the same function the webhooks use), plus the fields lists sort and filter on.
 */
export const SEARCH_RUNS = 'search_runs';

export interface SearchRunDoc {
  team_id: string;
  created_at: string;
  status: string;
  state: SearchRunState;
}

export const searchRunsProjection: Projection = {
  name: 'search_runs',
  version: 1,
  eventTypes: [
    'SearchRunRequested',
    'SearchRunStarted',
    'SubqueriesPlanned',
    'SerpPageFetched',
    'PageFetched',
    'FindingGraded',
    'ResultsMerged',
    'ReportWritten',
    'SearchRunCompleted',
    'SearchRunFailed',
    'SearchRunCancelRequested',
    'SearchRunCancelled',
  ],
  filter: { streamPrefixes: ['search-'] },
  collection: SEARCH_RUNS,
  versionBy: 'revision',
  indexes: ['team_id'],
  ids: (event) => [event.stream.slice('search-'.length)],
  apply(doc, event) {
    const previous = (doc as unknown as SearchRunDoc | undefined)?.state ?? searchRunDecider.initialState;
    const state = searchRunDecider.evolve(previous, { type: event.type, data: event.data } as SearchRunEvent);
    if (state === previous) return doc;
    const requested = event.type === 'SearchRunRequested' ? (event.data as { team_id: string; requested_at: string }) : undefined;
    const base = doc as unknown as SearchRunDoc | undefined;
    const next: SearchRunDoc = {
      team_id: requested?.team_id ?? base?.team_id ?? '',
      created_at: requested?.requested_at ?? base?.created_at ?? event.created,
      status: searchRunView(state).status,
      state,
    };
    return { ...next };
  },
};
