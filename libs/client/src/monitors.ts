import { pageOf, PagePromise, type PageQuery } from './pagination';
import { type RequestOptions, segment, type Transport } from './transport';
import type { History, Monitor, MonitorBody, MonitorEvent, MonitorPatchBody } from './types';

/** Monitors: a query (or a page) watched on a cadence, each run an event, notified by signed webhook. */
export class Monitors {
  constructor(private readonly transport: Transport) {}

  /** Creates a monitor (201) of a `query`, or of a page (`url`: each run reads it live and diffs its main content); `webhook_secret` is write-only. */
  create(body: MonitorBody, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({ method: 'POST', path: '/v1/monitors', body, options });
  }

  /** The team's monitors: `await` it for a page, `for await` over it for every monitor. */
  list(query: PageQuery & { status?: 'active' | 'paused' } = {}, options?: RequestOptions): PagePromise<Monitor> {
    return new PagePromise(query, (q) => pageOf<Monitor>(this.transport, '/v1/monitors', 'monitors', q, options));
  }

  retrieve(id: string, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({ method: 'GET', path: this.path(id), options });
  }

  /** A partial update; `webhook_secret: null` clears the secret. */
  update(id: string, body: MonitorPatchBody, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({ method: 'PATCH', path: this.path(id), body, options });
  }

  /** Deletes the monitor (its history stays in the event log). */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.json({ method: 'DELETE', path: this.path(id), options });
  }

  pause(id: string, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({ method: 'POST', path: `${this.path(id)}/pause`, options });
  }

  resume(id: string, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({ method: 'POST', path: `${this.path(id)}/resume`, options });
  }

  /** Runs the monitor now (also when paused): the monitor event once recorded. */
  run(id: string, options?: RequestOptions): Promise<MonitorEvent> {
    return this.transport.json({ method: 'POST', path: `${this.path(id)}/run`, options });
  }

  /** The monitor's events, newest first: `await` it for a page, `for await` over it for every event. */
  events(id: string, query: PageQuery = {}, options?: RequestOptions): PagePromise<MonitorEvent> {
    return new PagePromise(query, (q) =>
      pageOf<MonitorEvent>(this.transport, `${this.path(id)}/events`, 'events', q, options),
    );
  }

  history(id: string, options?: RequestOptions): Promise<History> {
    return this.transport.json({ method: 'GET', path: `${this.path(id)}/history`, options });
  }

  private path(id: string): string {
    return `/v1/monitors/${segment(id)}`;
  }
}
