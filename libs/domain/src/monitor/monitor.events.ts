import type { DomainEvent } from '../decider';
import type { CreditsCharged } from '../charge/charge.events';
import type { RunResult } from '../run/research-progress';
import type { Cadence } from './monitor.schedule';

/**
 * Events of a `monitor-<id>` stream: a tracked query, its settings, every run (started, then its
 * monitor event), and what happened to each webhook delivery. Nothing is updated in place: the
 * monitor's whole life is its history.
 */
export type MonitorMode = 'diff' | 'snapshot';
export type NotifyOn = 'change' | 'match' | 'error';
export const NOTIFY_ON: readonly NotifyOn[] = ['change', 'match', 'error'];

export interface MonitorSettings {
  /** The tracked query; a page monitor's is its URL (the spec requires a string). */
  query: string;
  /** A page monitor watches this page instead of a query; null for a query monitor. */
  url: string | null;
  cadence: Cadence;
  cron: string | null;
  mode: MonitorMode;
  filter_prompt: string | null;
  notify_on: NotifyOn[];
  webhook: string | null;
  webhook_max_attempts: number;
  webhook_backoff_seconds: number;
  country: string;
  language: string;
  metadata: Record<string, unknown>;
}

/** A webhook secret at rest: AES-256-GCM ciphertext under SECRETS_KEY, never the secret. */
export interface SealedSecret {
  ciphertext: string;
}

/** A result row of a monitor run: a search result's own fields. */
export type MonitorRow = Pick<RunResult, 'url' | 'title' | 'snippet' | 'date' | 'domain' | 'score'>;

/** API.md "Monitor events". */
export interface MonitorEvent {
  event_id: string;
  monitor_id: string;
  ran_at: string;
  status: 'changed' | 'unchanged' | 'matched' | 'error';
  mode: MonitorMode;
  results_count: number;
  results: MonitorRow[];
  added: MonitorRow[];
  removed: MonitorRow[];
  matched: boolean | null;
  error: string | null;
  slots_covered: number;
  /** Page monitors: the lines of the page's main content (markdown) added and removed since the previous run. */
  diff?: PageDiff;
  /** Page monitors: sha256 of the page's main content (markdown). */
  content_hash?: string;
  /** Page monitors in snapshot mode: the page's main content (markdown). */
  content?: string;
}

export interface PageDiff {
  added: string[];
  removed: string[];
  summary: string;
}

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
