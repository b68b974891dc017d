import { isAbsolute, resolve } from 'node:path';
import type { EventStore } from './event-store.port';
import { openSqliteEventStore } from './sqlite.event-store';

/**
 * Opens the event log named by a URL:
 * - `sqlite:///abs/path.db` (absolute) or `sqlite://relative/path.db` (from the cwd);
 *   `sqlite://:memory:` for a throwaway in-memory log;
 * - `esdb://…` or `esdb+discover://…`: an EventStoreDB connection string, passed on whole.
 */
export async function openEventStore(url: string): Promise<EventStore> {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'sqlite') {
    const rest = decodeURIComponent(url.slice('sqlite://'.length));
    if (rest === '') throw new Error('sqlite event store url has no file path: use sqlite:///abs/path.db');
    if (rest === ':memory:') return openSqliteEventStore(rest);
    return openSqliteEventStore(isAbsolute(rest) ? rest : resolve(process.cwd(), rest));
  }
  if (scheme === 'esdb' || scheme === 'esdb+discover') {
    // Loaded on demand: the gRPC client is heavy and sqlite deployments never need it.
    const { EsdbEventStore } = await import('./esdb.event-store');
    return EsdbEventStore.connect(url);
  }
  // Only the scheme is echoed: the rest of the URL may hold credentials.
  throw new Error(
    `unsupported event store url scheme ${scheme === undefined ? '(none)' : `"${scheme}"`}: ` +
      'expected sqlite://, esdb:// or esdb+discover://',
  );
}
