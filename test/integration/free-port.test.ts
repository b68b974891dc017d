import * as fs from 'node:fs';
import * as net from 'node:net';
import { freePort, freePortRun } from '../support/free-port';

const listen = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const close = (server: net.Server) => new Promise((r) => server.close(r));

const linuxRange = (() => {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return { low: low!, high: high! };
  } catch {
    return null;
  }
})();

describe('free ports for the servers tests start', () => {
  it('a run of ports can each be listened on, one after another', async () => {
    for (let i = 0; i < 20; i++) {
      const first = await freePortRun(3);
      const servers = [await listen(first), await listen(first + 1), await listen(first + 2)];
      await Promise.all(servers.map(close));
    }
  });

  // Outgoing connections take their local port from the ephemeral range: a port chosen there can be
  // held by one (a service's own bus connection) before the server binds it, for the connection's life.
  (linuxRange ? it : it.skip)(
    'ports come from below the range the OS gives outgoing connections (Linux only: it reads that range from /proc)',
    async () => {
      for (let i = 0; i < 50; i++) {
        const first = await freePortRun(2);
        expect(first).toBeGreaterThanOrEqual(1_024);
        expect(first + 1).toBeLessThan(linuxRange!.low);
        expect(await freePort()).toBeLessThan(linuxRange!.low);
      }
    },
  );
});
