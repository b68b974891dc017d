import { teamStream } from '../team/team.events';
import { defineRunKind, publishResearch } from '../run/run-kind';
import { searchRunKind } from './search-run.decider';
import { SEARCH_RUN_STREAM_PREFIX } from './search-run.events';
import { searchRunListItem, searchRunView } from './search-run.view';

export const SEARCH_RUNS_COLLECTION = 'search_runs';

/** Deep search runs (POST /v1/search with depth deep), worked by the research service. */
export const searchRuns = defineRunKind(searchRunKind, {
  name: 'search',
  streamPrefix: SEARCH_RUN_STREAM_PREFIX,
  idPrefix: 'search_',
  noun: 'Search run',
  service: 'research',
  view: searchRunView,
  readModel: { collection: SEARCH_RUNS_COLLECTION, version: 2, listItem: searchRunListItem },
  webhook: { type: 'search_run', url: (state) => state.params.webhook, signer: (state) => teamStream(state.team_id) },
  queued: true,
  queuedFields: (state) => ({ queries: state.params.queries }),
  publishProgress: (event, state) => publishResearch(event, state.progress),
});
