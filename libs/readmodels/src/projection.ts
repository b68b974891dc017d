import type { AllFilter, RecordedEvent } from '@app/eventstore';

/** What a projection writes: plain JSON (the store adds `_id` and `_version`); declare documents as `type`s. */
export type ProjectedDoc = Record<string, unknown>;

/**
 * A read model as a pure function of the log: no I/O, no clock, no randomness, so a replay or a
 * rebuild gives the same documents.
 *
 * The projector stores a version on each doc and skips an event whose version is not newer:
 * - `versionBy: 'revision'` (the event's stream revision) for a doc fed by ONE stream only;
 * - `versionBy: 'position'` (the global position) for aggregates fed by many streams.
 * A revision-versioned doc fed by two streams would drop events, so use position there.
 */
export interface Projection<Doc extends ProjectedDoc = ProjectedDoc> {
  /** Unique; with `version` it names the checkpoint, so bumping `version` rebuilds the collection. */
  name: string;
  version: number;
  /** Exact event types this projection handles; others are never passed to `apply`. */
  eventTypes: string[];
  /** Stream prefixes it reads (the projector subscribes to their union); absent = every stream. */
  filter?: AllFilter;
  /** Owned by this projection alone: it is cleared on rebuild. */
  collection: string;
  versionBy: 'revision' | 'position';
  /**
   * Indexes the store keeps: a field queried by equality (e.g. team_id), or a compound one,
   * equality fields then the field sorted on (e.g. ['run_id', 'seq']).
   */
  indexes?: Array<string | readonly string[]>;
  /** Documents this event touches (none = ignore it). */
  ids(event: RecordedEvent): string[];
  /**
   * Next state of doc `id` (undefined when absent). Return a new object; the doc passed in is
   * read-only (frozen by the memory store). `_id`/`_version` in the result are ignored.
   * Returning undefined deletes the doc (or leaves it absent).
   */
  apply(doc: Doc | undefined, event: RecordedEvent, id: string): Doc | undefined;
}

/** The checkpoint name of a projection: a new version starts from an absent checkpoint. */
export const checkpointName = (prefix: string, projection: Pick<Projection, 'name' | 'version'>): string =>
  `${prefix}:${projection.name}@v${projection.version}`;
