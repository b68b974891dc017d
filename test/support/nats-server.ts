import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from './free-port';

export interface NatsServerHandle {
  url: string;
  port: number;
  /** Stops the server and deletes its store directory. */
  stop(): Promise<void>;
  /**
   * Stops and starts it again on the same port and store (clients see a disconnect, then reconnect);
   * `downMs` keeps it down that long in between, to observe the outage.
   */
  restart(downMs?: number): Promise<void>;
}

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 10_000;

/**
 * The nats-server the suites start: NATS_SERVER_BIN, else the one scripts/nats-server.js built (the
 * release line production runs; `npm test` builds it), else an installed one (Debian's).
 */
export function findNatsBinary(): string {
  const candidates = [
    process.env.NATS_SERVER_BIN,
    ...builtNatsServers(),
    ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => dir && path.join(dir, 'nats-server')),
    '/usr/sbin/nats-server',
    '/usr/bin/nats-server',
    '/usr/local/bin/nats-server',
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error(
    'nats-server binary not found (looked at $NATS_SERVER_BIN, $PATH, /usr/sbin, /usr/bin, /usr/local/bin). ' +
      'Install the Debian package: `apt-get install nats-server` (the CI script installs it).',
  );
}

/** Binaries scripts/nats-server.js left in its cache, the newest version first. */
function builtNatsServers(): string[] {
  const cache = path.join(os.homedir(), '.cache', 'web-research');
  const version = (dir: string) => dir.replace('nats-server-v', '').split('.').map(Number);
  const newer = (a: string, b: string) => {
    const [x, y] = [version(a), version(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++)
      if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
    return 0;
  };
  try {
    return fs
      .readdirSync(cache)
      .filter((dir) => /^nats-server-v\d+\.\d+\.\d+$/.test(dir))
      .sort(newer)
      .map((dir) => path.join(cache, dir, 'nats-server'));
  } catch {
    return [];
  }
}

/** Resolves once the server sends its INFO line, i.e. it accepts client connections. */
export function probeNats(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, HOST);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('INFO')));
    socket.once('error', () => done(false));
  });
}

async function spawnServer(bin: string, port: number, storeDir: string): Promise<ChildProcess> {
  const child = spawn(bin, ['-a', HOST, '-p', String(port), '-js', '-sd', storeDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`nats-server exited before accepting connections on port ${port}:\n${stderr}`);
    if (await probeNats(port)) return child;
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill('SIGKILL');
  throw new Error(`nats-server did not accept connections on port ${port} within ${READY_TIMEOUT_MS} ms:\n${stderr}`);
}

export function stopNats(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // SIGKILL only if a clean shutdown stalls, so a broken server can't hang the test run.
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startNatsServer(): Promise<NatsServerHandle> {
  const bin = findNatsBinary();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-test-'));
  let port = 0;
  let child: ChildProcess | undefined;
  // The free port can be taken between probing and binding; a few attempts make that race harmless.
  for (let attempt = 1; !child; attempt++) {
    port = await freePort(HOST);
    try {
      child = await spawnServer(bin, port, storeDir);
    } catch (err) {
      if (attempt >= 3) {
        fs.rmSync(storeDir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  let current: ChildProcess = child;
  return {
    url: `nats://${HOST}:${port}`,
    port,
    async stop() {
      await stopNats(current);
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
    async restart(downMs = 0) {
      await stopNats(current);
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      current = await spawnServer(bin, port, storeDir);
    },
  };
}
