import { publicStatus, type RunKind } from '@app/domain/run';
import type { Projection } from '../projection';

/**
 * One document per run of a kind, holding the decider's state (the view is computed from it on
 * read, by the same function the streams and webhooks use), plus the fields lists sort and
 * filter on.
 */
export interface RunDoc<State = unknown> {
  team_id: string;
  created_at: string;
  /** The public status (a run whose cancel was requested reads cancelled). */
  status: string;
  state: State;
}

export function runProjection(kind: RunKind, version: number): Projection {
  return {
    name: kind.collection,
    version,
    eventTypes: [...kind.eventTypes],
    filter: { streamPrefixes: [kind.streamPrefix] },
    collection: kind.collection,
    versionBy: 'revision',
    indexes: ['team_id', 'status'],
    ids: (event) => [event.stream.slice(kind.streamPrefix.length)],
    apply(doc, event) {
      const base = doc as unknown as RunDoc<Parameters<RunKind['view']>[0]> | undefined;
      const previous = base?.state ?? kind.decider.initialState;
      const state = kind.decider.evolve(previous, { type: event.type, data: event.data });
      if (state === previous || state.status === 'absent') return doc;
      // The public status from the state itself: the whole view is not built on every event.
      const next: RunDoc = { team_id: state.team_id, created_at: state.requested_at, status: publicStatus(state), state };
      return { ...next };
    },
  };
}
