import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import {
  type AddressClass,
  type AllowHosts,
  bareHost,
  classifyAddress,
  describeAddressClass,
  isLocalhostName,
} from './address-policy';

/**
 * The connect-time guard. Every socket the fetcher opens goes through `createConnection` of one
 * of these agents, so the decision is made on the address actually dialled, after DNS, on every
 * redirect hop, and a DNS answer cannot change between the check and the connect (no rebinding
 * window). Two layers: our classifier (in our own `lookup` and on IP literals) and, underneath,
 * request-filtering-agent's own check, which wraps that lookup.
 */

/** Name resolution, injectable so tests can point `evil.test` at 127.0.0.1 without touching DNS. */
export type Resolver = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(
    readonly address: string,
    readonly addressClass: AddressClass,
    readonly hostname?: string,
  ) {
    // A name's internal address is not told to whoever asked (it would map the private network):
    // only its class is. An address given as such is echoed.
    super(
      hostname && hostname !== address
        ? `${hostname} resolves to ${describeAddressClass(addressClass)}`
        : `${address} is ${describeAddressClass(addressClass)}`,
    );
  }
}

export class ConnectTimeoutError extends Error {
  readonly code = 'ECONNECTTIMEOUT';
  constructor(host: string, ms: number) {
    super(`connecting to ${host} took longer than ${ms} ms`);
  }
}

export interface GuardOptions {
  allowHosts: AllowHosts;
  resolver?: Resolver;
  connectTimeoutMs: number;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A `net` lookup function over `resolver`; with `check`, refuses if ANY answer is not public. */
export function makeLookup(resolver: Resolver, check: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    const cb = callback as LookupCallback;
    resolver(hostname).then(
      (answers) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family === 4 || family === 6 ? answers.filter((a) => a.family === family) : answers;
        if (!usable.length) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          return cb(err, '');
        }
        if (check) {
          // All of them, not just the first: with happy eyeballs Node may dial any answer.
          for (const { address } of answers) {
            const cls = classifyAddress(address);
            if (cls !== 'public') return cb(new BlockedAddressError(address, cls, hostname), '');
          }
        }
        if (options.all) cb(null, usable);
        else cb(null, usable[0].address, usable[0].family);
      },
      (err: NodeJS.ErrnoException) => cb(err, ''),
    );
  };
}

type ConnectOpts = net.TcpNetConnectOpts & { socketPath?: string };
type Connect = (options: ConnectOpts, cb?: (err: Error | null, socket: Duplex) => void) => Duplex | null | undefined;

class ConnectGuard {
  private readonly checkedLookup: net.LookupFunction;
  private readonly plainLookup: net.LookupFunction;

  constructor(private readonly opts: GuardOptions) {
    const resolver = opts.resolver ?? systemResolver;
    this.checkedLookup = makeLookup(resolver, true);
    this.plainLookup = makeLookup(resolver, false);
  }

  /**
   * `filtered` is request-filtering-agent's createConnection (which validates again inside our
   * lookup and on literals); `direct` is Node's own, used only for an allow-listed host:port.
   */
  connect(options: ConnectOpts, cb: Parameters<Connect>[1], filtered: Connect, direct: Connect) {
    if (options.socketPath) throw new Error('unix sockets are never dialled');
    const host = bareHost(String(options.host ?? 'localhost'));
    const port = Number(options.port ?? 80);
    let socket: ReturnType<Connect>;
    if (this.opts.allowHosts.matches(host, port)) {
      socket = direct({ ...options, lookup: this.plainLookup }, cb);
    } else {
      if (net.isIP(host)) {
        const cls = classifyAddress(host);
        if (cls !== 'public') throw new BlockedAddressError(host, cls);
      } else if (isLocalhostName(host)) {
        throw new BlockedAddressError(host, 'loopback');
      }
      socket = filtered({ ...options, lookup: this.checkedLookup }, cb);
    }
    if (socket) this.armConnectTimeout(socket as net.Socket, host);
    return socket;
  }

  /** Covers DNS + TCP connect; the total deadline for the exchange is the fetcher's business. */
  private armConnectTimeout(socket: net.Socket, host: string) {
    if (!socket.connecting) return;
    const timer = setTimeout(
      () => socket.destroy(new ConnectTimeoutError(host, this.opts.connectTimeoutMs)),
      this.opts.connectTimeoutMs,
    );
    timer.unref();
    const clear = () => clearTimeout(timer);
    socket.once('connect', clear);
    socket.once('close', clear);
  }
}

// Looked up per call (not captured at load) so a test double on the prototype sees every path.
// Node seam: @types/node declares createConnection with overloads; the agent calls it with one signature.
const nodeCreate = (agent: typeof http.Agent | typeof https.Agent) =>
  agent.prototype.createConnection as unknown as Connect;

export class GuardedHttpAgent extends RequestFilteringHttpAgent {
  private readonly guard: ConnectGuard;
  constructor(guard: GuardOptions, agentOptions: http.AgentOptions = {}) {
    super({ ...agentOptions, allowPrivateIPAddress: false, allowMetaIPAddress: false });
    this.guard = new ConnectGuard(guard);
  }
  override createConnection(options: ConnectOpts, cb?: (err: Error | null, socket: net.Socket) => void) {
    return this.guard.connect(
      options,
      cb as Parameters<Connect>[1],
      (o, c) => super.createConnection(o, c as never),
      (o, c) => nodeCreate(http.Agent).call(this, o, c),
    );
  }
}

export class GuardedHttpsAgent extends RequestFilteringHttpsAgent {
  private readonly guard: ConnectGuard;
  constructor(guard: GuardOptions, agentOptions: https.AgentOptions = {}) {
    super({ ...agentOptions, allowPrivateIPAddress: false, allowMetaIPAddress: false });
    this.guard = new ConnectGuard(guard);
  }
  override createConnection(options: ConnectOpts, cb?: (err: Error | null, socket: net.Socket) => void) {
    return this.guard.connect(
      options,
      cb as Parameters<Connect>[1],
      (o, c) => super.createConnection(o, c as never),
      (o, c) => nodeCreate(https.Agent).call(this, o, c),
    );
  }
}
