import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '@app/config';
import { webhookDeliveryStream } from '@app/domain/webhook-delivery';
import { type EventStore, openSqliteEventStore, type RecordedEvent } from '@app/eventstore';
import { SecretBox } from '@app/platform/secrets';
import { MemoryReadStore } from '@app/readmodels';
import {
  DeliveryWorker,
  type DeliveryWorkerOptions,
  deliveryWorkerOptions,
} from '../../../apps/webhooks/src/delivery-worker';

// Workers log each start; keep the test output to warnings and errors.
Logger.overrideLogger(['error', 'warn']);

/** What the receiver got, and what it answered. */
export interface Received {
  headers: Record<string, string>;
  body: string;
  /** Did the body verify (standardwebhooks) with the secret the receiver holds? */
  verified: boolean;
  /** 'hang' while unanswered. */
  status: number | 'hang';
}

export const verifies = (received: Pick<Received, 'headers' | 'body'>, secret: string): boolean => {
  try {
    new Webhook(secret).verify(received.body, received.headers);
    return true;
  } catch {
    return false;
  }
};

/** The status for the n-th request (0-based), later (a promise), or never ('hang'). */
export type Responder = (n: number, webhookId: string) => number | 'hang' | Promise<number>;

/**
 * A webhook endpoint on 127.0.0.1, as a customer would write it: it verifies every delivery with
 * the standardwebhooks package and refuses (401) what does not verify, so "accepted" means
 * "verified".
 */
export class Receiver {
  readonly requests: Received[] = [];
  connections = 0;
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private readonly arrivals: Array<() => void> = [];

  constructor(
    private readonly secret: () => string | undefined,
    private readonly respond: Responder = () => 204,
  ) {
    this.server.on('connection', () => this.connections++);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(pathname = '/hooks/in'): string {
    return `http://127.0.0.1:${this.port}${pathname}`;
  }

  get accepted(): Received[] {
    return this.requests.filter((r) => typeof r.status === 'number' && r.status >= 200 && r.status < 300);
  }

  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void> {
    return this.requests.length >= count
      ? Promise.resolve()
      : new Promise((resolve) => this.arrivals.push(() => this.requests.length >= count && resolve()));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = this.secret();
      const verified = secret !== undefined && verifies({ headers, body }, secret);
      const received: Received = { headers, body, verified, status: 'hang' };
      this.requests.push(received);
      this.arrivals.forEach((arrived) => arrived());
      const wanted = this.respond(this.requests.length - 1, headers['webhook-id']);
      if (wanted === 'hang') return;
      void Promise.resolve(wanted).then((status) => {
        received.status = verified ? status : 401;
        res.writeHead(received.status).end();
      });
    });
  }
}

export const secretBox = () => SecretBox.fromBase64(randomBytes(32).toString('base64'));

export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-'));

/** A sqlite event log file, opened by each "replica" separately as separate processes would. */
export const openLog = (dir: string): EventStore => openSqliteEventStore(path.join(dir, 'events.db'));

type RunEnd = 'completed' | 'failed' | 'cancelled';

/**
 * A deep search run as the research service records it (search-run.events.ts), appended raw:
 * requested, started, results, then its end.
 */
export async function seedRun(
  store: EventStore,
  run: {
    teamId: string;
    webhook: string | null;
    end?: RunEnd;
    searchId?: string;
    results?: Array<Record<string, unknown>>;
  },
): Promise<{ searchId: string; endedAt: string }> {
  const searchId = run.searchId ?? randomUUID();
  const at = new Date().toISOString();
  const ends = {
    completed: { type: 'SearchRunCompleted', data: { completed_at: at } },
    failed: { type: 'SearchRunFailed', data: { error: 'search provider unavailable', failed_at: at } },
    cancelled: { type: 'SearchRunCancelled', data: { cancelled_at: at } },
  };
  const events = [
    {
      type: 'SearchRunRequested',
      data: {
        search_id: searchId,
        team_id: run.teamId,
        key_id: 'k1',
        request_id: `req-${searchId}`,
        params: {
          queries: ['sodium ion batteries'],
          prompt: null,
          objective: null,
          limit: 10,
          country: 'us',
          language: 'en',
          max_subqueries: 3,
          max_fetches: 5,
          webhook: run.webhook,
        },
        requested_at: at,
      },
    },
    { type: 'SearchRunStarted', data: { worker_id: 'research-1', lease_until: at, started_at: at, resumed: false } },
    {
      type: 'ResultsMerged',
      data: {
        results: run.results ?? [
          { url: 'https://example.com/a', title: 'A', snippet: 'a', date: null, domain: 'example.com', score: 1 },
        ],
        reranked: false,
      },
    },
    ends[run.end ?? 'completed'],
  ];
  await store.append(
    `search-${searchId}`,
    events.map((event) => ({
      id: randomUUID(),
      ...event,
      metadata: { team_id: run.teamId, correlation_id: `req-${searchId}` },
    })),
    'no_stream',
  );
  return { searchId, endedAt: at };
}

const FINISHED = new Set(['WebhookDelivered', 'WebhookDeliveryAbandoned']);

/** The delivery's stream once it has an outcome (awaited on the log, not polled). */
export async function finished(store: EventStore, deliveryId: string, timeoutMs = 10_000): Promise<RecordedEvent[]> {
  const subscription = store.subscribeToStream(webhookDeliveryStream(deliveryId));
  const timer = setTimeout(() => void subscription.close(), timeoutMs);
  const seen: RecordedEvent[] = [];
  try {
    for await (const event of subscription) {
      seen.push(event);
      if (FINISHED.has(event.type)) return seen;
    }
  } finally {
    clearTimeout(timer);
    await subscription.close();
  }
  throw new Error(
    `delivery ${deliveryId} did not finish within ${timeoutMs} ms; events: ${seen.map((e) => e.type).join(', ') || 'none'}`,
  );
}

/** The events of one type in a delivery stream, data only. */
export const ofType = (events: RecordedEvent[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.data);

/**
 * A worker configured as the service configures it (loadConfig over env), with the receiver's
 * port allowed through the SSRF guard and a fresh in-memory read store of its own.
 */
export function makeWorker(
  store: EventStore,
  box: SecretBox,
  env: Record<string, string>,
  options: Partial<DeliveryWorkerOptions> = {},
): DeliveryWorker {
  const config = loadConfig({ WEBHOOK_BACKOFF_SECONDS: '0', ...env });
  return new DeliveryWorker(
    store,
    new MemoryReadStore(),
    box,
    deliveryWorkerOptions(config, { attemptTimeoutMs: 2_000, drainMs: 2_000, ...options }),
  );
}
