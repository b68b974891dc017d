import { MONITOR_STREAM_PREFIX, monitorDecider, type MonitorEvent, type MonitorState } from '@app/domain';
import { evolveRecorded } from '@app/eventstore';
import type { Projection } from '../projection';
import { Collection } from '../read-store.port';

/** `monitors`: one document per monitor, holding the decider's state (a deleted one keeps its doc, status `deleted`). */
export const MONITORS = 'monitors';

export type MonitorDoc = {
  team_id: string;
  created_at: string;
  status: 'active' | 'paused' | 'deleted';
  state: MonitorState;
};

/** The `monitors` collection, typed. */
export const monitors = new Collection<MonitorDoc>(MONITORS);

const MONITOR_EVENT_TYPES = [
  'MonitorCreated',
  'MonitorUpdated',
  'MonitorPaused',
  'MonitorResumed',
  'MonitorDeleted',
  'MonitorRunStarted',
  'MonitorRunTakenOver',
  'MonitorEventRecorded',
  'MonitorWebhookOutcome',
];

export const monitorsProjection: Projection<MonitorDoc> = {
  name: MONITORS,
  version: 1,
  eventTypes: MONITOR_EVENT_TYPES,
  filter: { streamPrefixes: [MONITOR_STREAM_PREFIX] },
  collection: MONITORS,
  versionBy: 'revision',
  indexes: ['team_id', 'status'],
  ids: (event) => [event.stream.slice(MONITOR_STREAM_PREFIX.length)],
  apply(doc, event) {
    const previous = doc?.state ?? monitorDecider.initialState;
    const state = evolveRecorded(monitorDecider, previous, event);
    if (state === previous || state.status === 'absent') return doc;
    const next: MonitorDoc = { team_id: state.team_id, created_at: state.created_at, status: state.status, state };
    return { ...next };
  },
};

/**
 * `monitor_events`: one document per monitor event, for the paged list. Whose they are is checked
 * on the monitor's own document, which stays (status `deleted`) after a delete.
 */
export const MONITOR_EVENTS = 'monitor_events';

export type MonitorEventDoc = {
  monitor_id: string;
  ran_at: string;
  /** The stream revision, zero-padded: sorts as recorded (ran_at may tie on a test clock). */
  seq: string;
  event: MonitorEvent;
};

/** The `monitor_events` collection, typed. */
export const monitorEvents = new Collection<MonitorEventDoc>(MONITOR_EVENTS);

export const monitorEventsProjection: Projection<MonitorEventDoc> = {
  name: MONITOR_EVENTS,
  version: 1,
  eventTypes: ['MonitorEventRecorded'],
  filter: { streamPrefixes: [MONITOR_STREAM_PREFIX] },
  collection: MONITOR_EVENTS,
  versionBy: 'revision',
  indexes: ['monitor_id'],
  ids: (event) => [(event.data as { event: MonitorEvent }).event.event_id],
  apply(doc, event) {
    const e = (event.data as { event: MonitorEvent }).event;
    const next: MonitorEventDoc = {
      monitor_id: e.monitor_id,
      ran_at: e.ran_at,
      seq: event.revision.toString().padStart(20, '0'),
      event: e,
    };
    return doc ?? { ...next };
  },
};
