/**
 * Every bus subject is named here and nowhere else. Naming: `<service>.<operation>`; the service
 * part is also the NATS queue group of the service that answers it.
 */

/** The services behind the bus (the gateway only sends, so it has no subjects of its own). */
export const SERVICES = ['search', 'research', 'findall', 'monitors', 'extraction', 'webhooks', 'projector'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const subjects = {
  /** Liveness of a service over the bus (gateway /readyz). Request `{}`, reply HealthReply. */
  health: <S extends ServiceName>(service: S) => `${service}.health` as const,
  /** Fetch and extract 1..20 URLs, charging the good ones (POST/GET /v1/extract). */
  extract: 'extraction.extract',
  /** Fetch one page through the SSRF-guarded cache, no charge (crawling seeds of the local index). */
  fetchPage: 'extraction.fetch',
  /** A site's URLs from its sitemaps and links, charging `sku_map` (POST /v1/map). */
  map: 'extraction.map',
  /** Read 1..100 URLs' main content without charging (the caller charges its own SKU). */
  read: 'extraction.read',
  /** Synchronous search, depths instant, fast and auto (POST /v1/search). */
  search: 'search.query',
  /** One provider page without a charge (the research pipeline's searches; its run is charged). */
  searchPage: 'search.page',
  /** Monitors: create, change, pause, resume, delete, run now. */
  createMonitor: 'monitors.create',
  updateMonitor: 'monitors.update',
  pauseMonitor: 'monitors.pause',
  resumeMonitor: 'monitors.resume',
  deleteMonitor: 'monitors.delete',
  runMonitor: 'monitors.run',
} as const;

/** The services that work runs: each answers `<service>.runs.start|cancel|reopen` for its kinds. */
export type RunServiceName = Extract<ServiceName, 'research' | 'findall' | 'extraction'>;

/** The run subjects of a service (the kind is named in the payload: one handler per service). */
export const runSubjects = <S extends RunServiceName>(service: S) =>
  ({ start: `${service}.runs.start`, cancel: `${service}.runs.cancel`, reopen: `${service}.runs.reopen` }) as const;

export type HealthSubject = ReturnType<typeof subjects.health<ServiceName>>;
