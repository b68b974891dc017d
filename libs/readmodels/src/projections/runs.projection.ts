import { publicStatus, type RunItems, type RunKind, type StateOf } from '@app/domain';
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
  /** A task group's run: its group and its number there (API.md "Task groups"); null otherwise. */
  group_id: string | null;
  group_seq?: number;
};

/** One item of a run kept in its own document (RunItems): the run's id, its order, and the kind's item fields. */
export type RunItemDoc<Item extends object = Record<string, unknown>> = Item & {
  run_id: string;
  /** The item's order in the run: the stream revision of the event that added it. */
  seq: number;
};

/** The collection of a kind with a read model (undefined for kinds read from the log). */
export const runCollection = <K extends RunKind>(kind: K): Collection<RunDoc<StateOf<K>>> | undefined =>
  kind.readModel ? new Collection<RunDoc<StateOf<K>>>(kind.readModel.collection) : undefined;

/** The items collection of a kind whose runs keep items apart (undefined otherwise). */
export const runItemsCollection = <Item extends object>(kind: RunKind): Collection<RunItemDoc<Item>> | undefined =>
  kind.readModel?.items ? new Collection<RunItemDoc<Item>>(kind.readModel.items.collection) : undefined;

/** The id of a run's item document: the run id and the item's order. */
export const runItemId = (runId: string, seq: number | bigint) => `${runId}:${seq}`;

/** The projection of a kind with a read model: its collection, filled from its streams. */
export function runProjection<K extends RunKind>(
  kind: K & { readModel: NonNullable<RunKind['readModel']> },
): Projection {
  const stored = kind.readModel.items?.summary ?? ((state: StateOf<K>) => state);
  return {
    name: kind.readModel.collection,
    version: kind.readModel.version,
    eventTypes: [...kind.eventTypes],
    filter: { streamPrefixes: [kind.streamPrefix] },
    collection: kind.readModel.collection,
    versionBy: 'revision',
    indexes: ['team_id', 'status', 'group_id'],
    ids: (event) => [event.stream.slice(kind.streamPrefix.length)],
    apply(doc, event) {
      const previous = (doc as RunDoc<StateOf<K>> | undefined)?.state ?? kind.decider.initialState;
      const evolved = evolveRecorded(kind.decider, previous, event);
      if (evolved === previous) return doc;
      // Without the items a kind keeps apart: what is stored does not grow with them.
      const state = stored(evolved);
      if (state.status === 'absent') return doc;
      // The public status from the state itself: the whole view is not built on every event.
      const group = state.params as { taskgroup_id?: string; taskgroup_seq?: number };
      const next: RunDoc = {
        team_id: state.team_id,
        created_at: state.requested_at,
        status: publicStatus(state),
        state,
        group_id: group.taskgroup_id ?? null,
        ...(group.taskgroup_seq !== undefined && { group_seq: group.taskgroup_seq }),
      };
      return { ...next };
    },
  };
}

/**
 * The projection of a kind's items (RunItems): one document per item event, `<run id>:<revision>`,
 * holding the run id and its order (`seq`) for paging a run's items in order.
 */
export function runItemsProjection(kind: RunKind & { readModel: { items: RunItems } }): Projection {
  const items = kind.readModel.items;
  return {
    name: items.collection,
    // A new shape of the run's documents rebuilds its items too.
    version: kind.readModel.version,
    eventTypes: [items.eventType],
    filter: { streamPrefixes: [kind.streamPrefix] },
    collection: items.collection,
    versionBy: 'revision',
    indexes: [['run_id', 'seq']],
    ids: (event) => [runItemId(event.stream.slice(kind.streamPrefix.length), event.revision)],
    apply(doc, event) {
      if (doc) return doc; // one event per item: written once
      const item: RunItemDoc = {
        ...items.item(event),
        run_id: event.stream.slice(kind.streamPrefix.length),
        seq: Number(event.revision),
      };
      return { ...item };
    },
  };
}

/** The projections of every kind that keeps a read model (and of the items it keeps apart). */
export const runProjections = (kinds: readonly RunKind[]): Projection[] =>
  kinds.flatMap((kind) => {
    const readModel = kind.readModel;
    if (!readModel) return [];
    const items = readModel.items;
    return [
      runProjection({ ...kind, readModel }),
      ...(items ? [runItemsProjection({ ...kind, readModel: { ...readModel, items } })] : []),
    ];
  });
