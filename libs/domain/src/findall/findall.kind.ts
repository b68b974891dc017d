import { lifecycleNames } from '../run/run.events';
import { publishLifecycle, type RunKind } from '../run/run-kind';
import { teamStream } from '../team/team.events';
import { findAllDecider, findAllRunKind, type FindAllState } from './findall.decider';
import { FINDALL_STREAM_PREFIX, type FindAllProgressEvent } from './findall.events';
import { entityRow, findAllView, type FindAllView } from './findall.view';

export const FINDALL_RUNS_COLLECTION = 'findall_runs';

/** FindAll runs as a run kind: `entity.found` is published as each match is confirmed. */
export const findAllRuns: RunKind<FindAllState, FindAllView, FindAllView> = {
  name: 'findall',
  prefix: findAllRunKind.prefix,
  streamPrefix: FINDALL_STREAM_PREFIX,
  idKey: findAllRunKind.idKey,
  noun: 'FindAll run',
  collection: FINDALL_RUNS_COLLECTION,
  webhookType: 'findall_run',
  eventTypes: [...Object.values(lifecycleNames(findAllRunKind.prefix)), 'CreditsCharged', ...findAllRunKind.progressEventTypes],
  decider: findAllDecider,
  view: findAllView,
  listItem: findAllView,
  webhookSigner: (state) => teamStream(state.team_id),
  webhookUrl: (state) => state.params.webhook,
  publish(event, state) {
    if (state.status === 'absent') return undefined;
    const lifecycle = publishLifecycle(findAllRuns, event, state, () => findAllView(state), () => ({ query: state.params.query }));
    if (lifecycle) return lifecycle;
    if (event.type === 'FindAllCandidateChecked') {
      const checked = (event as FindAllProgressEvent & { type: 'FindAllCandidateChecked' }).data;
      const candidate = state.progress.candidates.find((c) => c.candidate_id === checked.candidate_id);
      if (checked.match_status === 'matched' && candidate) return { event: 'entity.found', data: { findall_id: state.run_id, candidate_id: candidate.candidate_id, ...entityRow(candidate) } };
    }
    return undefined;
  },
};
