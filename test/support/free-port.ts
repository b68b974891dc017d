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
