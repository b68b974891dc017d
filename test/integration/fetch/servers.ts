import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LookupAddress } from 'node:dns';

/** A loopback HTTP server that counts what reaches it: TCP connections and requests. */
export interface CountingServer {
  port: number;
  /** TCP connections accepted, on every address it listens on. */
  connections: number;
  requests: number;
  paths: string[];
  /** Also listening on [::1] (same port) when the host has IPv6 loopback. */
  ipv6: boolean;
  close(): Promise<void>;
}

export async function startServer(
  handler: http.RequestListener = (_req, res) => res.end('ok'),
  opts: { ipv6?: boolean } = {},
): Promise<CountingServer> {
  const sockets = new Set<Socket>();
  const servers: http.Server[] = [];
  const state: CountingServer = {
    port: 0,
    connections: 0,
    requests: 0,
    paths: [],
    ipv6: false,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
  const make = () => {
    const server = http.createServer((req, res) => {
      state.requests++;
      state.paths.push(req.url ?? '');
      handler(req, res);
    });
    server.on('connection', (socket) => {
      state.connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    servers.push(server);
    return server;
  };
  const v4 = make();
  await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
  state.port = (v4.address() as AddressInfo).port;
  if (opts.ipv6) {
    const v6 = make();
    state.ipv6 = await new Promise<boolean>((resolve) => {
      v6.once('error', () => resolve(false));
      v6.listen(state.port, '::1', () => resolve(true));
    });
    if (!state.ipv6) servers.pop();
  }
  return state;
}

/** A resolver with a fixed table and no network: `evil.test` -> 127.0.0.1 and so on. */
export function stubResolver(table: Record<string, string[] | 'hang'>) {
  return async (hostname: string): Promise<LookupAddress[]> => {
    const answer = table[hostname.toLowerCase()];
    if (answer === 'hang') return new Promise<never>(() => undefined);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
