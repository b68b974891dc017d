/**
 * Two defects of the NATS client's Node transport (nats.js 2.29, unchanged in 3.x) show when a
 * node of the cluster stalls (a paused or frozen machine: it holds its TCP connections open and
 * answers nothing). They are corrected here, on the transport's prototype, once, when the bus
 * library loads; every connection the services make (Nest's client and server) goes through it.
 *
 * 1. A dial that times out while the stalled node has not sent its INFO line is abandoned, but
 *    its socket is not closed (`close()` of a transport that never connected returns at once).
 *    When the node comes back it sends INFO, the forgotten transport counts itself connected,
 *    and when the node later drops it (no CONNECT came) its close is taken for the close of the
 *    live connection: the client reconnects elsewhere and leaves the live connection open, with
 *    its subscriptions, on a node it no longer reads (requests queued to it are lost).
 *    Corrected: closing a transport that has not connected destroys its socket, and one that
 *    connects after it was closed destroys itself without reporting a close.
 *
 * 2. Leaving a stalled node (unanswered pings) first flushes what is buffered for it, and
 *    waits for that flush: with more than the kernel's buffers hold (a busy gateway), it never
 *    completes, and the client never reconnects while the node stays stalled.
 *    Corrected: the socket is destroyed if the close has not completed within FLUSH_ON_LEAVE_MS
 *    (what was buffered was for a node that stopped reading).
 *
 * test/integration/bus/nats-stalled-node.test.ts shows both against real nats-server nodes.
 */
import type { Socket } from 'node:net';

/** How long leaving a node waits for its buffered writes to flush before dropping them. */
export const FLUSH_ON_LEAVE_MS = 1_000;

interface TransportInternals {
  connected: boolean;
  done: boolean;
  socket?: Socket;
  connect(hp: unknown, options: unknown): Promise<void>;
  close(err?: Error): Promise<void>;
  disconnect(): void;
}

const ABANDONED = Symbol('abandoned before it connected');
const PATCHED = Symbol.for('web-research.nats-stalled-node');

function loadTransportPrototype(): TransportInternals | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require('nats/lib/src/node_transport') as { NodeTransport?: { prototype: TransportInternals } };
    return mod.NodeTransport?.prototype;
  } catch {
    return undefined;
  }
}

export function correctNatsTransport(): boolean {
  const proto = loadTransportPrototype() as (TransportInternals & { [PATCHED]?: true }) | undefined;
  if (!proto || typeof proto.connect !== 'function' || typeof proto.close !== 'function') return false;
  if (proto[PATCHED]) return true;
  const { connect, close, disconnect } = proto;
  type Marked = TransportInternals & { [ABANDONED]?: boolean };

  proto.close = function (this: Marked, err?: Error) {
    if (!this.connected) {
      this[ABANDONED] = true;
      this.socket?.destroy();
    }
    return close.call(this, err);
  };

  proto.connect = async function (this: Marked, hp: unknown, options: unknown) {
    await connect.call(this, hp, options);
    if (!this[ABANDONED]) return;
    // Closed by the dial that gave up on it: go away without a close the client would hear.
    this.connected = false;
    this.socket?.removeAllListeners();
    this.socket?.destroy();
    this.socket = undefined;
    throw new Error('the dial gave up on this server before it answered');
  };

  proto.disconnect = function (this: Marked) {
    disconnect.call(this);
    const leaving = this.socket;
    if (!leaving) return;
    setTimeout(() => {
      if (!this.done && this.socket === leaving) leaving.destroy();
    }, FLUSH_ON_LEAVE_MS).unref();
  };

  Object.defineProperty(proto, PATCHED, { value: true });
  return true;
}
