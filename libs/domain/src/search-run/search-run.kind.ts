import { lifecycleNames } from '../run/run.events';
import { teamStream } from '../team/team.events';
import { publishLifecycle, publishResearch, type RunKind } from '../run/run-kind';
import { searchRunDecider, searchRunKind, type SearchRunState } from './search-run.decider';
import { SEARCH_RUN_STREAM_PREFIX } from './search-run.events';
import { searchRunListItem, searchRunView, type SearchRunListItem, type SearchRunView } from './search-run.view';

export const SEARCH_RUNS_COLLECTION = 'search_runs';

/** Deep search runs as a run kind of the shared machinery. */
export const searchRuns: RunKind<SearchRunState, SearchRunView, SearchRunListItem> = {
  name: 'search',
  prefix: searchRunKind.prefix,
  streamPrefix: SEARCH_RUN_STREAM_PREFIX,
  idKey: searchRunKind.idKey,
  noun: 'Search run',
  collection: SEARCH_RUNS_COLLECTION,
  webhookType: 'search_run',
  eventTypes: [...Object.values(lifecycleNames(searchRunKind.prefix)), 'CreditsCharged', ...searchRunKind.progressEventTypes],
  decider: searchRunDecider,
  view: searchRunView,
  listItem: searchRunListItem,
  webhookSigner: (state) => teamStream(state.team_id),
  webhookUrl: (state) => state.params.webhook,
  publish(event, state) {
    if (state.status === 'absent') return undefined;
    const view = () => searchRunView(state);
    const lifecycle = publishLifecycle(searchRuns, event, state, view, () => ({ queries: state.params.queries }));
    if (lifecycle) return lifecycle;
    return publishResearch(event, state.progress);
  },
};
