import { isEventOf } from '../decider';
import { defineRunKind } from '../run/run-kind';
import { teamStream } from '../team/team.events';
import { findAllRunKind } from './findall.decider';
import { FINDALL_STREAM_PREFIX, type FindAllProgressEvent } from './findall.events';
import { entityRow, findAllView } from './findall.view';

const isFindAllEvent = isEventOf<FindAllProgressEvent>();

export const FINDALL_RUNS_COLLECTION = 'findall_runs';

/** FindAll runs, worked by the findall service: `entity.found` is published as each match is confirmed. */
export const findAllRuns = defineRunKind(findAllRunKind, {
  name: 'findall',
  streamPrefix: FINDALL_STREAM_PREFIX,
  idPrefix: 'findall_',
  noun: 'FindAll run',
  service: 'findall',
  view: findAllView,
  readModel: { collection: FINDALL_RUNS_COLLECTION, version: 1, listItem: findAllView },
  webhook: { type: 'findall_run', url: (state) => state.params.webhook, signer: (state) => teamStream(state.team_id) },
  queued: true,
  queuedFields: (state) => ({ query: state.params.query }),
  publishProgress(event, state) {
    if (!isFindAllEvent(event, 'FindAllCandidateChecked')) return undefined;
    const checked = event.data;
    const candidate = state.progress.candidates.find((c) => c.candidate_id === checked.candidate_id);
    return checked.match_status === 'matched' && candidate
      ? {
          event: 'entity.found',
          data: { findall_id: state.run_id, candidate_id: candidate.candidate_id, ...entityRow(candidate) },
        }
      : undefined;
  },
});
