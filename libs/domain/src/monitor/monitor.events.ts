import type { DomainEvent } from '../decider';
import type { CreditsCharged } from '../charge/charge.events';
import { AnyObject, Nullable, type Static, StringEnum, Type } from '../schema';
import { CADENCES } from './monitor.schedule';

/**
 * Events of a `monitor-<id>` stream: a tracked query, its settings, every run (started, then its
 * monitor event), and what happened to each webhook delivery. Nothing is updated in place: the
 * monitor's whole life is its history.
 */
export const MONITOR_MODES = ['diff', 'snapshot'] as const;
export type MonitorMode = (typeof MONITOR_MODES)[number];
export const NOTIFY_ON = ['change', 'match', 'error'] as const;
export type NotifyOn = (typeof NOTIFY_ON)[number];

export const MonitorSettingsSchema = Type.Object({
  query: Type.String({ description: "The tracked query; a page monitor's is its URL" }),
  url: Nullable(
    Type.String({ description: 'A page monitor watches this page instead of a query; null for a query monitor' }),
  ),
  cadence: StringEnum(CADENCES),
  cron: Nullable(Type.String()),
  mode: StringEnum(MONITOR_MODES),
  filter_prompt: Nullable(Type.String()),
  notify_on: Type.Array(StringEnum(NOTIFY_ON)),
  webhook: Nullable(Type.String()),
  webhook_max_attempts: Type.Integer(),
  webhook_backoff_seconds: Type.Integer(),
  country: Type.String(),
  language: Type.String(),
  metadata: AnyObject(),
});
export type MonitorSettings = Static<typeof MonitorSettingsSchema>;

/** A webhook secret at rest: AES-256-GCM ciphertext under SECRETS_KEY, never the secret. */
export interface SealedSecret {
  ciphertext: string;
}

/** A result row of a monitor run: a search result's own fields. */
export const MonitorRowSchema = Type.Object({
  url: Type.String(),
  title: Type.String(),
  snippet: Type.String(),
  date: Nullable(Type.String()),
  domain: Type.String(),
  score: Type.Number(),
});
export type MonitorRow = Static<typeof MonitorRowSchema>;

export const PageDiffSchema = Type.Object({
  added: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
  summary: Type.String(),
});
export type PageDiff = Static<typeof PageDiffSchema>;

/** API.md "Monitor events". */
export const MonitorEventSchema = Type.Object(
  {
    event_id: Type.String(),
    monitor_id: Type.String(),
    ran_at: Type.String(),
    status: StringEnum(['changed', 'unchanged', 'matched', 'error']),
    mode: StringEnum(MONITOR_MODES),
    results_count: Type.Integer(),
    results: Type.Array(MonitorRowSchema),
    added: Type.Array(MonitorRowSchema),
    removed: Type.Array(MonitorRowSchema),
    matched: Nullable(Type.Boolean()),
    error: Nullable(Type.String()),
    slots_covered: Type.Integer(),
    diff: Type.Optional(PageDiffSchema),
    content_hash: Type.Optional(
      Type.String({ description: "Page monitors: sha256 of the page's main content (markdown)" }),
    ),
    content: Type.Optional(
      Type.String({ description: "Page monitors in snapshot mode: the page's main content (markdown)" }),
    ),
  },
  { $id: 'MonitorEvent' },
);
export type MonitorEvent = Static<typeof MonitorEventSchema>;

export type MonitorCreated = DomainEvent<
  'MonitorCreated',
  {
    monitor_id: string;
    team_id: string;
    key_id: string;
    request_id: string;
    settings: MonitorSettings;
    status: 'active' | 'paused';
    webhook_secret: SealedSecret | null;
    created_at: string;
  }
>;
/** `webhook_secret`: absent = unchanged, null = cleared. */
export type MonitorUpdated = DomainEvent<
  'MonitorUpdated',
  { settings: Partial<MonitorSettings>; webhook_secret?: SealedSecret | null; updated_at: string }
>;
export type MonitorPaused = DomainEvent<'MonitorPaused', { paused_at: string }>;
export type MonitorResumed = DomainEvent<'MonitorResumed', { resumed_at: string }>;
export type MonitorDeleted = DomainEvent<'MonitorDeleted', { deleted_at: string }>;
/** A run: scheduled (the latest due slot it covers, and how many) or manual (slot null). */
export type MonitorRunStarted = DomainEvent<
  'MonitorRunStarted',
  {
    event_id: string;
    trigger: 'schedule' | 'manual';
    slot: string | null;
    slots_covered: number;
    started_at: string;
    worker_id: string;
    lease_until: string;
  }
>;
/** Another worker took over a run whose worker stopped before recording its event. */
export type MonitorRunTakenOver = DomainEvent<
  'MonitorRunTakenOver',
  { event_id: string; worker_id: string; lease_until: string; at: string }
>;
/** `page`: a page monitor's content, kept for the next run's diff (the public event shows it only in snapshot mode). */
export type MonitorEventRecorded = DomainEvent<
  'MonitorEventRecorded',
  { event: MonitorEvent; page?: { content: string } }
>;
/** The outcome of a webhook attempt for one of its events (the webhooks service reports it). */
export type MonitorWebhookOutcome = DomainEvent<
  'MonitorWebhookOutcome',
  {
    event_id: string;
    delivery_id: string;
    attempt: number;
    status: number | null;
    error: string | null;
    delivered: boolean;
    final: boolean;
    at: string;
  }
>;

export type MonitorEventType =
  | MonitorCreated
  | MonitorUpdated
  | MonitorPaused
  | MonitorResumed
  | MonitorDeleted
  | MonitorRunStarted
  | MonitorRunTakenOver
  | MonitorEventRecorded
  | MonitorWebhookOutcome
  | CreditsCharged;

export const MONITOR_STREAM_PREFIX = 'monitor-';
export const monitorStream = (monitorId: string): string => `${MONITOR_STREAM_PREFIX}${monitorId}`;
