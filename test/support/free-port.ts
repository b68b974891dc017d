import * as fs from 'node:fs';
import * as net from 'node:net';

/** Binds `port` (0: any) on `host` and releases it: the port bound, or null where it is taken. */
function bindAndRelease(port: number, host: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(null) : reject(error),
    );
    server.listen(port, host, () => {
      const bound = (server.address() as net.AddressInfo).port;
      server.close((err) => (err ? reject(err) : resolve(bound)));
    });
  });
}

/**
 * The lowest port the OS hands out to outgoing connections (Linux: ip_local_port_range), or null
 * where it cannot be read.
 */
function ephemeralLow(): number | null {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2_048 ? low : null;
  } catch {
    return null;
  }
}

/** Ports below the ephemeral range start here (above the well-known and most registered services' ports). */
const LOW = 10_000;

/**
 * `count` consecutive ports free right now (a cluster's gateway replicas listen on PORT, PORT + 1,
 * ...), for a server the caller starts a little later.
 *
 * The ports are chosen below the range the OS gives outgoing connections. A port in that range
 * can be taken between this check and the server's bind by any connection a process opens (a
 * service's own NATS connection among them): that connection then holds it for its whole life, and
 * the server cannot bind it at all. Below the range only another listener can take it, and the
 * listeners of tests bind port 0 (the ephemeral range) or come through here at a random start.
 * Where the range is unknown (not Linux), the first port comes from the OS.
 */
export async function freePortRun(count: number, host = '127.0.0.1'): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 200; attempt++) {
    let first: number;
    if (low !== null && low - LOW > count) first = LOW + Math.floor(Math.random() * (low - LOW - count));
    else {
      const bound = await bindAndRelease(0, host);
      if (bound === null) continue;
      first = bound;
    }
    if (first + count - 1 > 65535) continue;
    let all = true;
    for (let i = 0; i < count && all; i++) all = (await bindAndRelease(first + i, host)) !== null;
    if (all) return first;
  }
  throw new Error(`no run of ${count} free ports found on ${host}`);
}

/** One free port, chosen as freePortRun chooses (another process may still take it: callers retry on EADDRINUSE). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return freePortRun(1, host);
}
