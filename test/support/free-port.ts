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
 * A port the OS reports free right now: bind port 0, read it, release it.
 * Another process may take it before the caller binds, so callers retry on EADDRINUSE.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const port = await bindAndRelease(0, host);
  if (port === null) throw new Error(`no free port on ${host}`);
  return port;
}

/**
 * `count` consecutive ports the OS reports free right now (a cluster's gateway replicas listen on
 * PORT, PORT + 1, ...): the first from the OS, the rest checked by binding them, tried again from
 * another start when one is taken.
 */
export async function freePortRun(count: number, host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await freePort(host);
    if (first + count - 1 > 65535) continue;
    let all = true;
    for (let i = 1; i < count && all; i++) all = (await bindAndRelease(first + i, host)) !== null;
    if (all) return first;
  }
  throw new Error(`no run of ${count} free ports found on ${host}`);
}
