import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect } from 'nats';
import { natsNodeConfig } from '../../scripts/nats-cluster-config';
import { freePort } from './free-port';
import { findNatsBinary, type NatsServerHandle, probeNats, stopNats } from './nats-server';

/**
 * Several `nats-server` processes on loopback routed into one cluster with JetStream (each its own
 * store directory), as production runs NATS: a client is given every node's URL and moves to a
 * live one on its own. A node can be killed and started again on its ports and store, or paused
 * (SIGSTOP: it holds its connections open and answers nothing, as a stalled machine does).
 */
export interface NatsClusterHandle extends NatsServerHandle {
  /** Every node's client URL. `url` is the same list, comma-separated (NATS_URL takes it so). */
  urls: string[];
  /** pid of node i (0-based), or undefined while it is down. */
  pid(node: number): number | undefined;
  kill(node: number, signal?: NodeJS.Signals): Promise<void>;
  start(node: number): Promise<void>;
  pause(node: number): void;
  resume(node: number): void;
  /** Names of the client connections node `node` holds (from its /connz monitoring endpoint). */
  connections(node: number): Promise<string[]>;
  /** Resolves once JetStream answers through node `node` (its meta leader elected, the node in it). */
  jetStreamReady(node?: number, timeoutMs?: number): Promise<void>;
  /**
   * Resolves once the JetStream meta group holds every node (its leader sees the others current):
   * only then can a stream replicated on all of them be placed. Rejects naming what the leader sees.
   */
  metaGroupComplete(timeoutMs?: number): Promise<void>;
}

const HOST = '127.0.0.1';

/** What a node's /jsz says of the JetStream meta group (`replicas`: the leader's followers). */
interface MetaCluster {
  leader?: string;
  cluster_size?: number;
  replicas?: Array<{ name: string; current?: boolean }>;
}
const READY_TIMEOUT_MS = 15_000;
/** Starts of a cluster whose node found its port taken, at most. */
const BIND_ATTEMPTS = 3;

interface Node {
  name: string;
  port: number;
  routePort: number;
  monitorPort: number;
  configFile: string;
  child?: ChildProcess;
  stderr: string;
}

async function spawnNode(bin: string, node: Node): Promise<void> {
  node.stderr = '';
  const child = spawn(bin, ['-c', node.configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (chunk: Buffer) => (node.stderr = (node.stderr + chunk.toString()).slice(-4000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`nats-server ${node.name} exited before accepting connections:\n${node.stderr}`);
    if (await probeNats(node.port)) {
      node.child = child;
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill('SIGKILL');
  throw new Error(`nats-server ${node.name} did not accept connections within ${READY_TIMEOUT_MS} ms:\n${node.stderr}`);
}

/** Nodes on fresh ports, each started and accepting connections; all stopped and their store removed if one fails. */
async function spawnCluster(bin: string, size: number): Promise<{ nodes: Node[]; storeDir: string }> {
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-cluster-'));
  const nodes: Node[] = [];
  for (let i = 0; i < size; i++) {
    const name = `n${i + 1}`;
    nodes.push({
      name,
      port: await freePort(HOST),
      routePort: await freePort(HOST),
      monitorPort: await freePort(HOST),
      configFile: path.join(storeDir, `${name}.conf`),
      stderr: '',
    });
  }
  // Liveness as short as a test's faults: a paused node stops being routed to within seconds.
  const shape = nodes.map((node) => ({ ...node, host: HOST }));
  for (const node of shape)
    fs.writeFileSync(node.configFile, natsNodeConfig(node, shape, path.join(storeDir, node.name), 1));
  try {
    await Promise.all(nodes.map((node) => spawnNode(bin, node)));
  } catch (error) {
    await Promise.all(nodes.map((node) => node.child && stopNats(node.child)));
    fs.rmSync(storeDir, { recursive: true, force: true });
    throw error;
  }
  return { nodes, storeDir };
}

export async function startNatsCluster(size = 3): Promise<NatsClusterHandle> {
  if (size < 3) throw new Error('a JetStream cluster needs three nodes or more');
  const bin = findNatsBinary();
  // A free port may be taken by another process before a node binds it (free-port.ts): the
  // cluster is then started again on other ports, a few times at most.
  let started: { nodes: Node[]; storeDir: string } | undefined;
  for (let attempt = 1; !started; attempt++) {
    try {
      started = await spawnCluster(bin, size);
    } catch (error) {
      if (attempt >= BIND_ATTEMPTS || !String(error).includes('address already in use')) throw error;
    }
  }
  const { nodes, storeDir } = started;
  const urls = nodes.map((node) => `nats://${HOST}:${node.port}`);
  const nodeAt = (i: number) => {
    const node = nodes[i];
    if (!node) throw new Error(`no node ${i} in a cluster of ${size}`);
    return node;
  };
  const handle: NatsClusterHandle = {
    url: urls.join(','),
    urls,
    port: nodes[0]!.port,
    pid: (i) => (nodeAt(i).child?.exitCode === null ? nodeAt(i).child?.pid : undefined),
    async kill(i, signal = 'SIGKILL') {
      const node = nodeAt(i);
      if (!node.child) return;
      if (signal === 'SIGTERM') await stopNats(node.child);
      else {
        const exited = new Promise((r) => node.child!.once('exit', r));
        node.child.kill('SIGCONT'); // a paused node cannot die of SIGTERM
        node.child.kill(signal);
        await exited;
      }
      node.child = undefined;
    },
    async start(i) {
      const node = nodeAt(i);
      if (node.child) throw new Error(`node ${node.name} is running`);
      await spawnNode(bin, node);
    },
    async connections(i) {
      const response = await fetch(`http://${HOST}:${nodeAt(i).monitorPort}/connz?limit=1024`, {
        signal: AbortSignal.timeout(2_000),
      });
      const body = (await response.json()) as { connections?: Array<{ name?: string }> };
      return (body.connections ?? []).map((c) => c.name ?? '');
    },
    pause: (i) => void nodeAt(i).child?.kill('SIGSTOP'),
    resume: (i) => void nodeAt(i).child?.kill('SIGCONT'),
    async jetStreamReady(i = 0, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last: unknown;
      while (Date.now() < deadline) {
        const nc = await connect({ servers: urls[i], timeout: 1_000 }).catch(
          (error: unknown) => ((last = error), undefined),
        );
        if (nc) {
          try {
            await (await nc.jetstreamManager({ timeout: 1_000 })).getAccountInfo();
            return;
          } catch (error) {
            last = error;
          } finally {
            await nc.close();
          }
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`JetStream did not answer through ${nodeAt(i).name} within ${timeoutMs} ms: ${String(last)}`);
    },
    async metaGroupComplete(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let seen = 'no node answered /jsz';
      while (Date.now() < deadline) {
        for (const node of nodes) {
          if (!node.child) continue;
          const meta = await fetch(`http://${HOST}:${node.monitorPort}/jsz`, { signal: AbortSignal.timeout(1_000) })
            .then((r) => r.json() as Promise<{ meta_cluster?: MetaCluster }>)
            .then((body) => body.meta_cluster)
            .catch(() => undefined);
          if (!meta?.replicas) continue; // only the leader lists the others
          const current = meta.replicas.filter((r) => r.current).map((r) => r.name);
          if (meta.cluster_size === size && current.length === size - 1) return;
          seen = `leader ${meta.leader}, cluster size ${meta.cluster_size}, current followers [${current.join(', ')}]`;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`the JetStream meta group did not hold all ${size} nodes within ${timeoutMs} ms: ${seen}`);
    },
    async stop() {
      await Promise.all(nodes.map((node) => node.child && (node.child.kill('SIGCONT'), stopNats(node.child))));
      nodes.forEach((node) => (node.child = undefined));
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
    /** The whole bus down and up again, every node on its ports and store. */
    async restart(downMs = 0) {
      await Promise.all(nodes.map((_, i) => handle.kill(i, 'SIGTERM')));
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await Promise.all(nodes.map((_, i) => handle.start(i)));
    },
  };
  try {
    await handle.jetStreamReady();
    // A meta group formed without a node places no stream on all of them (nats-server 2.10 did so
    // after about one cold start in twenty; scripts/nats-server.js): say so here, not as a refused stream.
    await handle.metaGroupComplete();
  } catch (error) {
    await handle.stop();
    throw error;
  }
  return handle;
}
