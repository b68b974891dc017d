import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseReplicas } from '../../scripts/replicas';
import { freePortRun } from './free-port';
import { type NatsClusterHandle, startNatsCluster } from './nats-cluster';
import { startNatsServer, type NatsServerHandle } from './nats-server';

/**
 * Runs the compiled service (dist/) as real OS processes for the HTTP black-box tests: standalone
 * (one process) or the cluster supervisor (one process per service over NATS). Every byte the
 * processes print goes to a log file, so a test can read all of it afterwards.
 */
/** The repository root: the nearest folder up with a package.json (from test/support or dist/test/support). */
export const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
})();
export const distMain = (app: string) => path.join(ROOT, 'dist', 'apps', app, 'src', 'main.js');
const KEYS_CLI = path.join(ROOT, 'dist', 'apps', 'cli', 'src', 'keys.js');
const CLUSTER = path.join(ROOT, 'dist', 'scripts', 'cluster.js');

export type Mode = 'standalone' | 'cluster';

export interface RunningService {
  mode: Mode;
  baseUrl: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  demoKey: string;
  demoWebhookSecret: string;
  /** Every file the processes of this run (and the CLI calls) wrote their output to. */
  logFiles: string[];
  /** The process started: the standalone service itself, or the cluster's supervisor. */
  pid: number;
  keys(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** pids of the cluster's service processes, by service (from their JSON logs): the latest of each. */
  servicePids(): Map<string, number>;
  /** Every pid a service has had (replicas and restarts), in the order they came up. */
  servicePidHistory(service: string): number[];
  /** pid of the latest gateway listening on each port (REPLICAS=gateway=2 runs one per port). */
  gatewayPids(): Map<number, number>;
  /** Cluster mode: stops NATS and starts it again on the same port and store after `downMs`. */
  restartBus(downMs?: number): Promise<void>;
  /** Cluster mode with `natsNodes` (3 or more): the NATS cluster, to kill, restart or pause its nodes. */
  natsCluster?: NatsClusterHandle;
  stop(): Promise<void>;
}

/**
 * The production storage the cluster e2e runs on when the test run is given it: EVENTSTORE_URL
 * (an EventStoreDB that must start empty: the first boot creates the demo team only on an empty
 * log, so use a fresh server per run) and MONGO_URL (each cluster gets a database of its own,
 * `<db>_e2e_<random>`). With an EventStoreDB log the processes need a shared SECRETS_KEY: one is
 * made per cluster unless given. Unset, the cluster shares a SQLite log in its data dir.
 */
export function productionStorage(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  if (source.EVENTSTORE_URL) {
    out.EVENTSTORE_URL = source.EVENTSTORE_URL;
    out.SECRETS_KEY = source.SECRETS_KEY ?? randomBytes(32).toString('base64');
  }
  if (source.MONGO_URL) {
    const url = new URL(source.MONGO_URL);
    const db = url.pathname.replace(/^\//, '') || 'webresearch';
    url.pathname = `/${db}_e2e_${randomBytes(4).toString('hex')}`;
    out.MONGO_URL = url.toString();
  }
  return out;
}

export function assertBuilt(): void {
  if (!fs.existsSync(distMain('standalone'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test builds first)');
  }
}

const waitFor = async (
  what: string,
  probe: () => Promise<boolean> | boolean,
  timeoutMs: number,
  /** What the failure message adds: why the service was not there yet (the last answers, the log's end). */
  explain: () => string = () => '',
) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  const why = explain();
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why ? `\n${why}` : ''}`);
};

/** The last lines of a log, for a failure message. */
const tail = (text: string, lines = 40) =>
  text
    .split('\n')
    .slice(-lines - 1)
    .join('\n');

export interface StartOptions {
  /**
   * Fills the data dir before the first boot (e.g. a log of charges for a benchmark) and returns
   * a key to use: the first boot then finds a non-empty log and prints no demo credentials.
   */
  prepare?: (dataDir: string) => Promise<{ key: string }>;
  /** Another build's standalone entry point (a baseline a benchmark compares against); standalone mode only. */
  main?: string;
  /** Node and V8 options for the service process (a profile or a GC trace of a benchmark run); standalone mode only. */
  execArgv?: string[];
  /** Boots on this data dir (a second boot of the same service) instead of a fresh one; `prepare` is then not called. */
  dataDir?: string;
  /** The key to call with when the data dir already has one (a second boot prints no demo key). */
  key?: string;
  /** How long boot may take to answer /readyz; default 30 s (a benchmark on a huge log needs longer). */
  readyTimeoutMs?: number;
  /**
   * Cluster mode: NATS as a cluster of this many nodes (3 or more) with JetStream, its buckets
   * replicated three times (NATS_REPLICAS), instead of one nats-server.
   */
  natsNodes?: number;
  /**
   * false: no OPENAPI_RESPONSE_CHECK. The check (a test facility: every /v1 answer validated
   * against the OpenAPI document) costs CPU on every request; a speed benchmark measures the
   * service as it is deployed, without it.
   */
  responseCheck?: boolean;
}

export async function startService(
  mode: Mode,
  extraEnv: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningService> {
  assertBuilt();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `wr-e2e-${mode}-`));
  // A data dir that already has a key (a second boot) prints none: the caller gives it.
  const prepared = options.key
    ? { key: options.key }
    : options.prepare && !options.dataDir
      ? await options.prepare(dataDir)
      : undefined;
  // A cluster with REPLICAS=gateway=N runs gateway i on PORT + i - 1 (scripts/cluster.ts): all of them must be free.
  const gatewayReplicas = mode === 'cluster' ? parseReplicas(extraEnv.REPLICAS).get('gateway')! : 1;
  // A caller that polls the service while it boots chooses its port (PORT in extraEnv).
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePortRun(gatewayReplicas);
  let nats: NatsServerHandle | undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_RPS: '0',
    // Every /v1 answer is checked against the OpenAPI document (apps/gateway/src/openapi/response-check.ts); stop() fails on any that does not conform.
    ...(options.responseCheck === false
      ? {}
      : { OPENAPI_RESPONSE_CHECK: path.join(dataDir, 'openapi-violations.jsonl') }),
    ...extraEnv,
  };
  // Off means off: not inherited from the caller's environment either (extraEnv may still set it).
  if (options.responseCheck === false && extraEnv.OPENAPI_RESPONSE_CHECK === undefined)
    delete env.OPENAPI_RESPONSE_CHECK;
  // Standalone is the embedded mode: its own SQLite log and memory read models. Cluster mode runs
  // on production storage when EVENTSTORE_URL / MONGO_URL are given (see productionStorage).
  delete env.EVENTSTORE_URL;
  delete env.MONGO_URL;
  if (mode === 'cluster') Object.assign(env, productionStorage());
  if (mode === 'cluster') {
    nats = options.natsNodes ? await startNatsCluster(options.natsNodes) : await startNatsServer();
    env.NATS_URL = nats.url;
    if (options.natsNodes) env.NATS_REPLICAS = '3';
    env.BUS = 'nats';
  }
  const logFile = path.join(dataDir, `${mode}.log`);
  const out = fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn(
    process.execPath,
    mode === 'cluster' ? [CLUSTER] : [...(options.execArgv ?? []), options.main ?? distMain('standalone')],
    {
      cwd: dataDir,
      env,
      stdio: ['ignore', out, out],
    },
  );
  const logFiles = [logFile];
  const read = () => fs.readFileSync(logFile, 'utf8');
  let exited = false;
  child.once('exit', () => (exited = true));

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    if (!prepared) {
      await waitFor(
        'the demo key',
        () => {
          if (exited) throw new Error(`${mode} exited early:\n${read()}`);
          return /Demo webhook secret: whsec_\S+/.test(read());
        },
        30_000,
        () => `${mode} log, last lines:\n${tail(read())}`,
      );
    }
    /** Each gateway replica's last answer to /readyz (its status and body, or why there was none). */
    const lastReady: string[] = [];
    await waitFor(
      '/readyz',
      async () => {
        if (exited) throw new Error(`${mode} exited early:\n${read()}`);
        // Every gateway replica answers before the tests start: a test that calls the second one must not find it still booting.
        const ready = await Promise.all(
          Array.from({ length: gatewayReplicas }, (_, i) =>
            // A probe that hangs (something else on the port) must not outlast the wait.
            fetch(`http://127.0.0.1:${port + i}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
              async (r) => {
                lastReady[i] = `${port + i}: ${r.status} ${(await r.text()).slice(0, 2_000)}`;
                return r.status === 200;
              },
              (error: Error) => {
                lastReady[i] = `${port + i}: ${String((error.cause as Error | undefined)?.message ?? error.message)}`;
                return false;
              },
            ),
          ),
        );
        return ready.every(Boolean);
      },
      // A cluster boots nine processes on two cores beside another test worker: 30 s was seen to fall short.
      options.readyTimeoutMs ?? (mode === 'cluster' ? 60_000 : 30_000),
      () => `last /readyz answers:\n${lastReady.join('\n')}\n${mode} log, last lines:\n${tail(read())}`,
    );
  } catch (error) {
    child.kill('SIGKILL');
    await nats?.stop();
    throw error;
  }
  const log = read();
  const demoKey = prepared?.key ?? /Demo API key: (wr_\S+)/.exec(log)![1];
  const demoWebhookSecret = prepared ? '' : /Demo webhook secret: (whsec_\S+)/.exec(log)![1];
  /** Every key and webhook secret this run has seen: none may appear in any log line it produced. */
  const issued = [demoKey, demoWebhookSecret].filter(Boolean);
  /** Every process that came up, in order, from the JSON logs' "listening" lines (services, and gateways with their port). */
  const listening = () => {
    const entries: Array<{ service: string; pid: number; port?: number }> = [];
    for (const line of read().split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as { service?: string; pid?: number; msg?: string; port?: number };
        if (entry.msg === 'service listening') entries.push({ service: entry.service!, pid: entry.pid! });
        else if (entry.msg === 'gateway listening')
          entries.push({ service: entry.service!, pid: entry.pid!, port: entry.port });
      } catch {
        // a partial line at the end of the file
      }
    }
    return entries;
  };

  return {
    mode,
    baseUrl,
    dataDir,
    env,
    demoKey,
    demoWebhookSecret,
    logFiles,
    pid: child.pid!,
    keys: (...args: string[]) =>
      new Promise((resolve) => {
        const cliLog = path.join(dataDir, `keys-cli-${logFiles.length}.log`);
        logFiles.push(cliLog);
        execFile(process.execPath, [KEYS_CLI, ...args], { cwd: dataDir, env }, (error, stdout, stderr) => {
          // stdout holds the printed key/secret by design; stderr is the CLI's diagnostics.
          fs.writeFileSync(cliLog, stderr);
          issued.push(...(stdout.match(/\b(wr_[A-Za-z0-9_-]+|whsec_[A-Za-z0-9+/=]+)/g) ?? []));
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
        });
      }),
    servicePids: () => new Map(listening().map((entry) => [entry.service, entry.pid])),
    servicePidHistory: (service: string) => [
      ...new Set(
        listening()
          .filter((entry) => entry.service === service)
          .map((entry) => entry.pid),
      ),
    ],
    gatewayPids: () =>
      new Map(
        listening()
          .filter((entry) => entry.port !== undefined)
          .map((entry) => [entry.port!, entry.pid]),
      ),
    natsCluster: options.natsNodes ? (nats as NatsClusterHandle) : undefined,
    restartBus: async (downMs?: number) => {
      if (!nats) throw new Error('restartBus: standalone mode has no NATS');
      await nats.restart(downMs);
    },
    stop: async () => {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await gone;
        clearTimeout(timer);
      }
      fs.closeSync(out);
      await nats?.stop();
      assertNoSecretsLogged(logFiles, issued);
      assertResponsesConform(env.OPENAPI_RESPONSE_CHECK);
    },
  };
}

/** Every answer the service gave conforms to its OpenAPI document: the check file holds no line. */
function assertResponsesConform(file: string | undefined): void {
  if (!file || !fs.existsSync(file)) return;
  const violations = [...new Set(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean))];
  if (violations.length > 0)
    throw new Error(
      `answers that do not conform to the OpenAPI document (${file}):\n${violations.slice(0, 20).join('\n')}`,
    );
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/**
 * No log line of a run may hold a key's secret part or a webhook secret. Outside the JSON logs,
 * only the two first-boot lines print the demo credentials, by design.
 */
export function assertNoSecretsLogged(files: string[], secrets: string[]): void {
  const parts = secrets
    .filter(Boolean)
    .map((secret) => (secret.startsWith('wr_') ? secret.slice(16) : secret.slice(6)));
  const leaks: string[] = [];
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (/^Demo (API key|webhook secret): /.test(line)) continue;
      if (parts.some((part) => line.includes(part))) leaks.push(`${path.basename(file)}: ${line.slice(0, 200)}`);
    }
  }
  if (leaks.length) throw new Error(`secrets found in logs:\n${leaks.join('\n')}`);
}
