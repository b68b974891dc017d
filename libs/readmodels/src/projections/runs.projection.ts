import { publicStatus, type RunKind, type StateOf } from '@app/domain';
import { evolveRecorded } from '@app/eventstore';
import type { Projection } from '../projection';
import { Collection } from '../read-store.port';

/**
 * One document per run of a kind, holding the decider's state (the view is computed from it on
 * read, by the same function the streams and webhooks use), plus the fields lists sort and
 * filter on.
 */
export type RunDoc<State = unknown> = {
  team_id: string;
  created_at: string;
  /** The public status (a run whose cancel was requested reads cancelled). */
  status: string;
  state: State;
};

/** The collection of a kind with a read model (undefined for kinds read from the log). */
export const runCollection = <K extends RunKind>(kind: K): Collection<RunDoc<StateOf<K>>> | undefined =>
  kind.readModel ? new Collection<RunDoc<StateOf<K>>>(kind.readModel.collection) : undefined;

/** The projection of a kind with a read model: its collection, filled from its streams. */
export function runProjection<K extends RunKind>(kind: K & { readModel: NonNullable<RunKind['readModel']> }): Projection {
  return {
    name: kind.readModel.collection,
    version: kind.readModel.version,
    eventTypes: [...kind.eventTypes],
    filter: { streamPrefixes: [kind.streamPrefix] },
    collection: kind.readModel.collection,
    versionBy: 'revision',
    indexes: ['team_id', 'status'],
    ids: (event) => [event.stream.slice(kind.streamPrefix.length)],
    apply(doc, event) {
      const previous = (doc as RunDoc<StateOf<K>> | undefined)?.state ?? kind.decider.initialState;
      const state = evolveRecorded(kind.decider, previous, event);
      if (state === previous || state.status === 'absent') return doc;
      // The public status from the state itself: the whole view is not built on every event.
      const next: RunDoc = { team_id: state.team_id, created_at: state.requested_at, status: publicStatus(state), state };
      return { ...next };
    },
  };
}

/** The projections of every kind that keeps a read model. */
export const runProjections = (kinds: readonly RunKind[]): Projection[] =>
  kinds.flatMap((kind) => (kind.readModel ? [runProjection({ ...kind, readModel: kind.readModel })] : []));
