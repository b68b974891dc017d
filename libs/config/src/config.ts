import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseIndexSeed } from './index-seeds';

/**
 * Every setting is an environment variable, validated once at boot (API.md "Configuration").
 * A bad value throws a ConfigError naming the variable; `main.ts` prints it as one line and exits 1.
 */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export interface Config {
  port: number;
  /** `HEALTH_PORT`: a bus service's /livez and /readyz for Kubernetes probes; unset = none (the gateway serves its own on PORT). */
  healthPort: number | undefined;
  /**
   * `HEAP_GROWTH_PERCENT`: how far past what it held live after its last full collection the
   * JavaScript heap may grow before the next one; 0 leaves it to V8 (which lets a busy process's
   * heap reach several times its live size).
   */
  heapGrowthPercent: number;
  host: string;
  dataDir: string;
  eventstoreUrl: string;
  mongoUrl: string | undefined;
  bus: 'inprocess' | 'nats';
  /** `NATS_URL`: one server, or every node of a cluster comma-separated (clients move to a live one). */
  natsServers: string[];
  searchProvider: 'local' | 'searxng' | 'brave';
  searxngUrl: string | undefined;
  /** SearXNG instances rate-limit: requests in flight and per second (0 = no rate limit). */
  searxngMaxConcurrent: number;
  searxngRps: number;
  braveApiKey: string | undefined;
  localIndexDir: string | undefined;
  /** Seeds as written (`URL` or `PUBLIC_ORIGIN=FETCH_URL`), each checked by `parseIndexSeed`. */
  localIndexSeeds: string[];
  /** `LOCAL_INDEX_REFRESH`: how often the seeds are crawled again (and the folder listed whole), in ms; undefined = never. */
  localIndexRefreshMs: number | undefined;
  /** Bytes of decoded postings (and kept block bounds) the local index's search thread keeps. */
  localIndexCacheBytes: number;
  /** Read the index file into the system's page cache after boot: `auto` when it takes at most half the memory available. */
  localIndexPreload: 'auto' | 'on' | 'off';
  /** `REPLICA` (set by the cluster supervisor, e.g. `search#2`): names this process's own copy of the local index. */
  replica: string | undefined;
  llmProvider: 'extractive' | 'openai';
  openaiBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
  openaiModel: string | undefined;
  fetchAllowHosts: string[];
  rateLimitRps: number;
  rateLimitBurst: number;
  maxBodyBytes: number;
  secretsKey: string | undefined;
  webhookMaxAttempts: number;
  webhookBackoffSeconds: number;
  runLeaseSeconds: number;
  maxConcurrentRunsPerTeam: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `json` lines, `pretty` lines for a person, or `auto`: pretty on a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty' | 'auto';
  /** Bus request timeout; a timeout becomes HTTP 503 with Retry-After. */
  busTimeoutMs: number;
  /**
   * `SHUTDOWN_DRAIN_SECONDS`: a stopping service takes no new bus message and answers those it
   * took for up to this long before it closes (a replica restarted in turn fails no request).
   */
  busDrainMs: number;
  /**
   * `SHUTDOWN_DELAY_SECONDS`: a stopping gateway says it is not ready this long before it ends its
   * live streams and closes (a load balancer's time to stop sending it requests); 0 by default.
   */
  shutdownDelayMs: number;
  /**
   * Payloads larger than a NATS message go through a JetStream object store of at most maxBytes,
   * unread ones kept ttlMs, its bucket kept on `replicas` nodes (`NATS_REPLICAS`: 3 on a cluster of
   * three, so one node down loses nothing) (libs/bus large-payloads.ts).
   */
  largePayloads: { maxBytes: number; ttlMs: number; replicas: number };
  /** How long a POST waits for the read model to pass its append position. */
  readYourWritesMs: number;
  /** SSE keep-alive comment / WebSocket ping interval. */
  streamKeepAliveSeconds: number;
  /** How often the monitors service checks which monitors are due. */
  monitorTickMs: number;
  /** `HEADERS_TIMEOUT_MS`: a client must send a request's headers within this. */
  headersTimeoutMs: number;
  /** `REQUEST_READ_TIMEOUT_MS`: a client must send a whole request (headers and body) within this; the handler's own time is not counted. */
  requestReadTimeoutMs: number;
  /** `LIVE_STREAMS_PER_KEY`: SSE/WebSocket streams and waits one API key may hold open at once in a gateway. */
  liveStreamsPerKey: number;
  /** `WS_MAX_MESSAGE_BYTES`: the largest WebSocket message a client may send (larger: closed with 1009). */
  wsMaxMessageBytes: number;
  /** `MAX_QUEUED_RUNS_PER_TEAM`: runs (deep, task, FindAll) a team may have waiting at once, counted across replicas. */
  maxQueuedRunsPerTeam: number;
  /** `MAX_INDEXED_PAGES_PER_TEAM`: pages a team's crawls (`index: true`) may hold in its own search index. */
  maxIndexedPagesPerTeam: number;
  /** `MAX_MONITORS_PER_TEAM`: monitors (not deleted) a team may hold. */
  maxMonitorsPerTeam: number;
  /** `MONITOR_MIN_INTERVAL_MINUTES`: a monitor's cron may not run more often than this. */
  monitorMinIntervalMinutes: number;
  /** `CHARGES_RETENTION_DAYS`: how long a charge stays in the read model behind GET /v1/usage/requests/{id}. */
  chargesRetentionDays: number;
  /** `CHARGES_MAX_DOCS`: the most charges the in-memory (embedded) read model keeps; past it the oldest are dropped, checked every minute. */
  chargesMaxDocs: number;
  /** `IDEMPOTENCY_MAX_BODY_BYTES`: the largest answer kept for an Idempotency-Key's replay. */
  idempotencyMaxBodyBytes: number;
  /** `PAGE_CACHE_MAX_MB`: the on-disk page cache's bound; past it the oldest pages are deleted. */
  pageCacheMaxMb: number;
  /** `EXTRACT_CALL_TIMEOUT_MS`: the whole of one `/v1/extract` call, every URL's fetch, render and extraction; a URL not read by then is that URL's error. */
  extractCallTimeoutMs: number;
  /** `MAP_CALL_TIMEOUT_MS`: the whole of one `/v1/map` call: sitemaps and pages gathered for its first three quarters, robots.txt's verdicts to its end. */
  mapCallTimeoutMs: number;
  /** `FETCH_MAX_CONCURRENCY`: outbound requests in flight at once in one process, every host together. */
  fetchMaxConcurrency: number;
  /** `CRAWL_MAX_ORIGINS`: distinct origins (scheme, host, port) one map or crawl reads, robots.txt included. */
  crawlMaxOrigins: number;
  /** `EXTRACT_TIMEOUT_MS`: how long extracting one page may take on its thread before it is given up. */
  extractTimeoutMs: number;
  /** `EXTRACT_THREADS`: extraction threads per process (0 = one per core, at most 4). */
  extractThreads: number;
  /** `EXTRACT_MAX_HEAP_MB`: the heap one extraction thread may hold; a page that needs more is given up. */
  extractMaxHeapMb: number;
  /** `EXTRACT_DOCUMENT_TIMEOUT_MS`: how long reading one PDF or Word file may take on its thread. */
  extractDocumentTimeoutMs: number;
  /** `BROWSER_PATH`: the Chromium that renders script-filled pages (default: the one found on the machine); none, no rendering. */
  browserPath: string | undefined;
  /** `BROWSER_POOL_SIZE`: pages rendered at once (0 turns rendering off). */
  browserPoolSize: number;
  /** `RENDER_TIMEOUT_MS`: one deadline per rendered page, from navigation to its content (load, scripts, settling, reading the DOM). */
  renderTimeoutMs: number;
  /** `RENDER_QUEUE_MAX`: renders waiting for a free browser page at most; one more is that URL's error. */
  renderQueueMax: number;
  /** Tests and drills: a file holding the current time (ISO-8601) that the monitor scheduler reads instead of the system clock. */
  monitorClockFile: string | undefined;
  /** Tests: a file the gateway appends a JSON line to for every /v1 answer that does not conform to the response schema its OpenAPI document declares. */
  openapiResponseCheck: string | undefined;
}

type Env = Record<string, string | undefined>;

const read = (env: Env, name: string): string | undefined => {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
};

const int = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
};

/** `90s`, `30m`, `6h`, `1d` or a bare number of seconds, as seconds; undefined when it is none of these. */
export function durationSeconds(text: string): number | undefined {
  const match = /^(\d+)\s*(s|m|h|d)?$/i.exec(text.trim());
  if (!match) return undefined;
  return (
    Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[(match[2] ?? 's').toLowerCase() as 's' | 'm' | 'h' | 'd']
  );
}

/** A duration variable (see `durationSeconds`) as milliseconds; `0`, `off` or unset: undefined. */
const duration = (env: Env, name: string, minSeconds: number, maxSeconds: number): number | undefined => {
  const raw = read(env, name);
  if (raw === undefined || raw === '0' || raw.toLowerCase() === 'off') return undefined;
  const seconds = durationSeconds(raw);
  if (seconds === undefined)
    throw new ConfigError(name, `must be a duration such as 30m, 6h or 1d (or off), got "${raw}"`);
  if (seconds < minSeconds || seconds > maxSeconds)
    throw new ConfigError(name, `must be between ${minSeconds} s and ${maxSeconds / 86_400} days, got ${seconds} s`);
  return seconds * 1000;
};

const oneOf = <T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T => {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
};

const url = (env: Env, name: string, schemes: string[]): string | undefined => {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!schemes.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(name, `must use one of the schemes ${schemes.join(', ')}`);
  }
  return raw;
};

/** A comma-separated list of URLs (a cluster's nodes), each checked as `url` checks one. */
const urls = (env: Env, name: string, schemes: string[]): string[] | undefined => {
  const items = list(env, name);
  if (items.length === 0) return undefined;
  return items.map((item) => url({ [name]: item }, name, schemes)!);
};

const list = (env: Env, name: string): string[] =>
  (read(env, name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

/** A list of crawl seeds, each checked at boot so a mistyped one is named, not silently never crawled. */
const seeds = (env: Env, name: string): string[] =>
  list(env, name).map((seed) => {
    try {
      return parseIndexSeed(seed).seed;
    } catch (error) {
      throw new ConfigError(name, (error as Error).message);
    }
  });

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(read(env, 'DATA_DIR') ?? './data');
  const eventstoreUrl =
    url(env, 'EVENTSTORE_URL', ['sqlite', 'esdb', 'esdb+discover']) ?? `sqlite://${path.join(dataDir, 'events.db')}`;
  const searchProvider = oneOf(env, 'SEARCH_PROVIDER', 'local', ['local', 'searxng', 'brave'] as const);
  const searxngUrl = url(env, 'SEARXNG_URL', ['http', 'https']);
  const braveApiKey = read(env, 'BRAVE_API_KEY');
  if (searchProvider === 'searxng' && !searxngUrl)
    throw new ConfigError('SEARXNG_URL', 'is required when SEARCH_PROVIDER=searxng');
  if (searchProvider === 'brave' && !braveApiKey)
    throw new ConfigError('BRAVE_API_KEY', 'is required when SEARCH_PROVIDER=brave');
  const llmProvider = oneOf(env, 'LLM_PROVIDER', 'extractive', ['extractive', 'openai'] as const);
  const openaiBaseUrl = url(env, 'OPENAI_BASE_URL', ['http', 'https']);
  if (llmProvider === 'openai' && !openaiBaseUrl)
    throw new ConfigError('OPENAI_BASE_URL', 'is required when LLM_PROVIDER=openai');
  const secretsKey = read(env, 'SECRETS_KEY');
  if (secretsKey !== undefined && Buffer.from(secretsKey, 'base64').length !== 32) {
    throw new ConfigError('SECRETS_KEY', 'must be 32 bytes, base64-encoded');
  }
  // With the log on EventStoreDB, processes need not share DATA_DIR (pods): each would make its own
  // key file, and one could not open a secret another sealed. The key must then be given.
  if (secretsKey === undefined && /^esdb/.test(eventstoreUrl)) {
    throw new ConfigError(
      'SECRETS_KEY',
      'is required when EVENTSTORE_URL is an EventStoreDB: processes that do not share DATA_DIR must share the key (32 bytes, base64)',
    );
  }
  const rateLimitRps = int(env, 'RATE_LIMIT_RPS', 20, 0, 1_000_000);
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestReadTimeoutMs = int(env, 'REQUEST_READ_TIMEOUT_MS', 30_000, 100, 3_600_000);
  // Node requires the headers' deadline to be no later than the whole request's.
  if (headersTimeoutMs > requestReadTimeoutMs)
    throw new ConfigError(
      'HEADERS_TIMEOUT_MS',
      `must not exceed REQUEST_READ_TIMEOUT_MS (${requestReadTimeoutMs}), got ${headersTimeoutMs}`,
    );
  const rateLimitBurst = int(env, 'RATE_LIMIT_BURST', 40, 1, 10_000_000);
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    healthPort: read(env, 'HEALTH_PORT') === undefined ? undefined : int(env, 'HEALTH_PORT', 8081, 1, 65535),
    heapGrowthPercent: int(env, 'HEAP_GROWTH_PERCENT', 50, 0, 1000),
    host: read(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    eventstoreUrl,
    mongoUrl: url(env, 'MONGO_URL', ['mongodb', 'mongodb+srv']),
    bus: oneOf(env, 'BUS', 'inprocess', ['inprocess', 'nats'] as const),
    natsServers: urls(env, 'NATS_URL', ['nats', 'tls', 'ws', 'wss']) ?? ['nats://127.0.0.1:4222'],
    searchProvider,
    searxngUrl,
    searxngMaxConcurrent: int(env, 'SEARXNG_MAX_CONCURRENT', 4, 1, 1000),
    searxngRps: int(env, 'SEARXNG_RPS', 2, 0, 100_000),
    braveApiKey,
    localIndexDir: read(env, 'LOCAL_INDEX_DIR'),
    localIndexSeeds: seeds(env, 'LOCAL_INDEX_SEEDS'),
    localIndexRefreshMs: duration(env, 'LOCAL_INDEX_REFRESH', 10, 30 * 86_400),
    localIndexCacheBytes: int(env, 'LOCAL_INDEX_CACHE_MB', 384, 8, 65_536) * 2 ** 20,
    localIndexPreload: oneOf(env, 'LOCAL_INDEX_PRELOAD', 'auto', ['auto', 'on', 'off'] as const),
    replica: read(env, 'REPLICA'),
    llmProvider,
    openaiBaseUrl,
    openaiApiKey: read(env, 'OPENAI_API_KEY'),
    openaiModel: read(env, 'OPENAI_MODEL'),
    fetchAllowHosts: list(env, 'FETCH_ALLOW_HOSTS'),
    rateLimitRps,
    rateLimitBurst,
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 1_073_741_824),
    secretsKey,
    webhookMaxAttempts: int(env, 'WEBHOOK_MAX_ATTEMPTS', 3, 1, 100),
    webhookBackoffSeconds: int(env, 'WEBHOOK_BACKOFF_SECONDS', 30, 0, 86_400),
    runLeaseSeconds: int(env, 'RUN_LEASE_SECONDS', 15, 1, 3600),
    maxConcurrentRunsPerTeam: int(env, 'MAX_CONCURRENT_RUNS_PER_TEAM', 4, 1, 1000),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    logFormat: oneOf(env, 'LOG_FORMAT', 'auto', ['json', 'pretty', 'auto'] as const),
    busTimeoutMs: int(env, 'BUS_TIMEOUT_MS', 10_000, 10, 600_000),
    busDrainMs: int(env, 'SHUTDOWN_DRAIN_SECONDS', 20, 0, 600) * 1000,
    shutdownDelayMs: int(env, 'SHUTDOWN_DELAY_SECONDS', 0, 0, 600) * 1000,
    largePayloads: {
      maxBytes: int(env, 'BUS_LARGE_PAYLOAD_MAX_MB', 1024, 1, 1_048_576) * 1024 * 1024,
      ttlMs: int(env, 'BUS_LARGE_PAYLOAD_TTL_SECONDS', 300, 10, 86_400) * 1000,
      replicas: int(env, 'NATS_REPLICAS', 1, 1, 5),
    },
    headersTimeoutMs,
    requestReadTimeoutMs,
    maxQueuedRunsPerTeam: int(env, 'MAX_QUEUED_RUNS_PER_TEAM', 50, 1, 1_000_000),
    maxIndexedPagesPerTeam: int(env, 'MAX_INDEXED_PAGES_PER_TEAM', 10_000, 1, 10_000_000),
    maxMonitorsPerTeam: int(env, 'MAX_MONITORS_PER_TEAM', 100, 1, 1_000_000),
    monitorMinIntervalMinutes: int(env, 'MONITOR_MIN_INTERVAL_MINUTES', 15, 1, 10_080),
    chargesRetentionDays: int(env, 'CHARGES_RETENTION_DAYS', 30, 1, 36_500),
    chargesMaxDocs: int(env, 'CHARGES_MAX_DOCS', 100_000, 1_000, 100_000_000),
    idempotencyMaxBodyBytes: int(env, 'IDEMPOTENCY_MAX_BODY_BYTES', 65_536, 1_024, 512 * 1024),
    pageCacheMaxMb: int(env, 'PAGE_CACHE_MAX_MB', 512, 1, 1_048_576),
    extractCallTimeoutMs: int(env, 'EXTRACT_CALL_TIMEOUT_MS', 60_000, 1_000, 600_000),
    mapCallTimeoutMs: int(env, 'MAP_CALL_TIMEOUT_MS', 8_000, 1_000, 600_000),
    fetchMaxConcurrency: int(env, 'FETCH_MAX_CONCURRENCY', 32, 1, 10_000),
    crawlMaxOrigins: int(env, 'CRAWL_MAX_ORIGINS', 20, 1, 10_000),
    liveStreamsPerKey: int(env, 'LIVE_STREAMS_PER_KEY', 20, 1, 100_000),
    wsMaxMessageBytes: int(env, 'WS_MAX_MESSAGE_BYTES', 16_384, 64, 16_777_216),
    extractTimeoutMs: int(env, 'EXTRACT_TIMEOUT_MS', 2_000, 100, 600_000),
    extractThreads: int(env, 'EXTRACT_THREADS', 0, 0, 64),
    extractMaxHeapMb: int(env, 'EXTRACT_MAX_HEAP_MB', 512, 64, 16_384),
    extractDocumentTimeoutMs: int(env, 'EXTRACT_DOCUMENT_TIMEOUT_MS', 20_000, 100, 600_000),
    browserPath: read(env, 'BROWSER_PATH') ?? findBrowser(),
    browserPoolSize: int(env, 'BROWSER_POOL_SIZE', 2, 0, 64),
    renderTimeoutMs: int(env, 'RENDER_TIMEOUT_MS', 15_000, 500, 600_000),
    renderQueueMax: int(env, 'RENDER_QUEUE_MAX', 16, 0, 10_000),
    readYourWritesMs: int(env, 'READ_YOUR_WRITES_MS', 2_000, 0, 60_000),
    streamKeepAliveSeconds: int(env, 'STREAM_KEEPALIVE_SECONDS', 15, 1, 3600),
    monitorTickMs: int(env, 'MONITOR_TICK_MS', 1_000, 10, 3_600_000),
    monitorClockFile: read(env, 'MONITOR_CLOCK_FILE'),
    openapiResponseCheck: read(env, 'OPENAPI_RESPONSE_CHECK'),
  };
}

export const CONFIG = Symbol('CONFIG');

/** The machine's Chromium (Debian's `chromium` package, or another common install), else undefined. */
function findBrowser(): string | undefined {
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ].find((file) => fs.existsSync(file));
}
