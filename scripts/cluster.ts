/**
 * `npm run start:cluster`: every service as its own OS process over NATS, sharing the event log,
 * supervised as Kubernetes would: a service that dies is started again (with backoff); Ctrl-C or
 * SIGTERM drains them all. Starts a local nats-server when none answers at NATS_URL and the
 * binary exists.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { openEventStore } from '@app/eventstore';
import { loadConfigOrExit } from '@app/platform/core/boot';
import { SecretBox } from '@app/platform/secrets';
import { bootstrapDemoTeam } from '@app/platform/teams/team-admin';
import { type NatsNode, natsNodeConfig } from './nats-cluster-config';
import { parseReplicas, SERVICES } from './replicas';

const NATS_BINARIES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];
const root = path.resolve(__dirname, '..', '..');
const say = (msg: string, extra: Record<string, unknown> = {}) =>
  process.stdout.write(
    JSON.stringify({ level: 'info', time: new Date().toISOString(), service: 'cluster', msg, ...extra }) + '\n',
  );

const answers = (host: string, port: number, ms = 500) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });

/** Starts one nats-server with `args`, in its own process group (Ctrl-C reaches the services first, and they drain while NATS is still up). */
async function startNatsServer(binary: string, args: string[], host: string, port: number): Promise<ChildProcess> {
  const child = spawn(binary, args, { stdio: 'ignore', detached: true });
  for (let i = 0; i < 100; i++) {
    if (await answers(host, port)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`nats-server did not start at ${host}:${port}`);
}

/**
 * NATS for the services: what answers at NATS_URL already, else one local nats-server, or with
 * NATS_CLUSTER=3 (or more) a cluster of that many nodes with JetStream (client ports from NATS_URL's
 * port up, route ports 2000 above them; the services are given every node and NATS_REPLICAS=3).
 */
async function ensureNats(
  servers: string[],
  dataDir: string,
  clusterSize: number,
): Promise<{ children: ChildProcess[]; servers: string[] }> {
  const first = new URL(servers[0]!);
  const host = first.hostname || '127.0.0.1';
  const base = Number(first.port || 4222);
  const nodes: NatsNode[] =
    clusterSize > 1
      ? Array.from({ length: clusterSize }, (_, i) => ({
          name: `n${i + 1}`,
          host,
          port: base + i,
          routePort: base + 2000 + i,
        }))
      : [{ name: 'n1', host, port: base, routePort: 0 }];
  const urls = clusterSize > 1 ? nodes.map((n) => `nats://${n.host}:${n.port}`) : servers;
  if (await answers(host, base)) return { children: [], servers: urls };
  const binary = NATS_BINARIES.find((candidate) => fs.existsSync(candidate));
  if (!binary) throw new Error(`no NATS server answers at ${servers.join(',')} and nats-server is not installed`);
  const storeDir = path.join(dataDir, 'nats');
  fs.mkdirSync(storeDir, { recursive: true });
  if (clusterSize <= 1) {
    const child = await startNatsServer(binary, ['-a', host, '-p', String(base), '-js', '-sd', storeDir], host, base);
    say('started nats-server', { url: urls[0], pid: child.pid });
    return { children: [child], servers: urls };
  }
  const children = await Promise.all(
    nodes.map((node) => {
      const file = path.join(storeDir, `${node.name}.conf`);
      fs.writeFileSync(file, natsNodeConfig(node, nodes, path.join(storeDir, node.name)));
      return startNatsServer(binary, ['-c', file], node.host, node.port);
    }),
  );
  say('started a NATS cluster', { nodes: urls, pids: children.map((c) => c.pid) });
  return { children, servers: urls };
}

async function main() {
  const config = loadConfigOrExit();
  let replicas: Map<string, number>;
  try {
    replicas = parseReplicas(process.env.REPLICAS);
  } catch (error) {
    process.stderr.write(`invalid configuration: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const clusterSize = Number(process.env.NATS_CLUSTER ?? 1);
  if (!Number.isInteger(clusterSize) || clusterSize < 1 || clusterSize === 2 || clusterSize > 7) {
    process.stderr.write(
      `invalid configuration: NATS_CLUSTER must be 1, or 3 to 7 nodes, got ${process.env.NATS_CLUSTER}\n`,
    );
    process.exit(1);
  }
  const nats = await ensureNats(config.natsServers, config.dataDir, clusterSize);
  const store = await openEventStore(config.eventstoreUrl);
  await bootstrapDemoTeam(store, SecretBox.load(config.secretsKey, config.dataDir), (line) =>
    process.stdout.write(line + '\n'),
  );
  await store.close();

  const env = {
    ...process.env,
    BUS: 'nats',
    NATS_URL: nats.servers.join(','),
    ...(clusterSize >= 3 && !process.env.NATS_REPLICAS && { NATS_REPLICAS: '3' }),
    DATA_DIR: config.dataDir,
  };
  const children = new Map<string, ChildProcess>();
  const restarts = new Map<string, number>();
  let stopping = false;

  const start = (name: string) => {
    const service = name.split('#')[0]!;
    const replica = Number(name.split('#')[1] ?? 1);
    const child = spawn(process.execPath, [path.join(root, 'dist', 'apps', service, 'src', 'main.js')], {
      env: { ...env, REPLICA: name, ...(service === 'gateway' && { PORT: String(config.port + replica - 1) }) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.set(name, child);
    const startedAt = Date.now();
    child.on('exit', (code, signal) => {
      children.delete(name);
      if (stopping) return;
      // Backoff doubles while a service keeps dying young, as a crash-looping pod's would.
      const n = Date.now() - startedAt > 30_000 ? 0 : (restarts.get(name) ?? 0) + 1;
      restarts.set(name, n);
      const delay = Math.min(10_000, 250 * 2 ** Math.min(n, 6));
      say('service exited; restarting', { service, replica: name, code, signal, restart_in_ms: delay });
      setTimeout(() => !stopping && start(name), delay);
    });
  };

  for (const service of SERVICES)
    for (let i = 1; i <= replicas.get(service)!; i++) start(replicas.get(service)! > 1 ? `${service}#${i}` : service);
  say('cluster started', {
    services: SERVICES,
    replicas: Object.fromEntries(replicas),
    port: config.port,
    nats: nats.servers,
  });

  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say('draining', { signal });
    const exits = [...children.values()].map((child) => new Promise((r) => child.once('exit', r)));
    for (const child of children.values()) child.kill('SIGTERM');
    const timer = setTimeout(() => [...children.values()].forEach((child) => child.kill('SIGKILL')), 10_000);
    await Promise.all(exits);
    clearTimeout(timer);
    nats.children.forEach((child) => child.kill('SIGTERM'));
    say('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`cluster: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
