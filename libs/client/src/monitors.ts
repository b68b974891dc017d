import { type RequestOptions, segment, type Transport } from './transport';
import type { History, JsonObject, MonitorBody, MonitorPatchBody, PageQuery } from './types';

/** Monitors: a query (or a page) watched on a cadence, each run an event, notified by signed webhook. */
export class Monitors {
  constructor(private readonly transport: Transport) {}

  /** Creates a monitor (201) of a `query`, or of a page (`url`: each run reads it live and diffs its main content); `webhook_secret` is write-only. */
  create(body: MonitorBody, options?: RequestOptions): Promise<JsonObject> {
    return this.transport.json({ method: 'POST', path: '/v1/monitors', body, options });
  }

  list(query: PageQuery & { status?: string } = {}, options?: RequestOptions): Promise<{ monitors: JsonObject[]; total: number; limit: number; offset: number }> {
    return this.transport.json({ method: 'GET', path: '/v1/monitors', query, options });
  }

  retrieve(id: string, options?: RequestOptions): Promise<JsonObject> {
    return this.transport.json({ method: 'GET', path: this.path(id), options });
  }

  /** A partial update; `webhook_secret: null` clears the secret. */
  update(id: string, body: MonitorPatchBody, options?: RequestOptions): Promise<JsonObject> {
    return this.transport.json({ method: 'PATCH', path: this.path(id), body, options });
  }

  /** Deletes the monitor (its history stays in the event log). */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.json({ method: 'DELETE', path: this.path(id), options });
  }

  pause(id: string, options?: RequestOptions): Promise<JsonObject> {
    return this.transport.json({ method: 'POST', path: `${this.path(id)}/pause`, options });
  }

  resume(id: string, options?: RequestOptions): Promise<JsonObject> {
    return this.transport.json({ method: 'POST', path: `${this.path(id)}/resume`, options });
  }

  /** Runs the monitor now (also when paused): the monitor event once recorded. */
  run(id: string, options?: RequestOptions): Promise<JsonObject> {
    return this.transport.json({ method: 'POST', path: `${this.path(id)}/run`, options });
  }

  /** A page of the monitor's events, newest first. */
  events(id: string, query: PageQuery = {}, options?: RequestOptions): Promise<{ events: JsonObject[]; total: number; limit: number; offset: number }> {
    return this.transport.json({ method: 'GET', path: `${this.path(id)}/events`, query, options });
  }

  history(id: string, options?: RequestOptions): Promise<History> {
    return this.transport.json({ method: 'GET', path: `${this.path(id)}/history`, options });
  }

  private path(id: string): string {
    return `/v1/monitors/${segment(id)}`;
  }
}
