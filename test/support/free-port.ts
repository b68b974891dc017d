import * as net from 'node:net';

/**
 * A port the OS reports free right now: bind port 0, read it, release it.
 * Another process may take it before the caller binds, so callers retry on EADDRINUSE.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close((err) => (err ? reject(err) : resolve(port)));
    });
  });
}

const bindable = (port: number, host: string) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });

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
    for (let i = 1; i < count && all; i++) all = await bindable(first + i, host);
    if (all) return first;
  }
  throw new Error(`no run of ${count} free ports found on ${host}`);
}
