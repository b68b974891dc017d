import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { AllowHosts } from '../../../libs/fetch/src/address-policy';
import { GuardedProxy } from '../../../libs/fetch/src/guarded-proxy';

/**
 * The loopback proxy the headless browser dials through, driven as a browser would (absolute-URL
 * requests, CONNECT tunnels) against real loopback servers: one allowed by host and port, one not.
 * Names resolve through a resolver of the test's own that answers a public address first and a
 * loopback one after (DNS rebinding): the proxy checks the address it dials, so the second
 * answer is refused.
 */
describe('GuardedProxy', () => {
  let allowed: http.Server;
  let other: http.Server;
  let proxy: GuardedProxy;
  let proxyUrl: URL;
  const otherSaw: string[] = [];
  const port = (s: http.Server) => (s.address() as AddressInfo).port;

  beforeAll(async () => {
    allowed = http.createServer((req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`allowed ${req.url}`),
    );
    other = http.createServer((req, res) => {
      otherSaw.push(req.url ?? '');
      res.end('INTERNAL');
    });
    await Promise.all([allowed, other].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
    let rebindCalls = 0;
    const resolver = async (host: string) => {
      if (host === 'rebind.test') return [{ address: rebindCalls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
      if (host === 'inside.test') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    proxy = new GuardedProxy(new AllowHosts([`127.0.0.1:${port(allowed)}`]), resolver, 2_000);
    proxyUrl = new URL(await proxy.start());
    await resolver('rebind.test'); // the answer a page's request was let through with
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all([allowed, other].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  const viaProxy = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: proxyUrl.hostname, port: proxyUrl.port, path: url, headers: { host: new URL(url).host } },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  const connect = (target: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(proxyUrl.port), proxyUrl.hostname, () =>
        socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
      );
      socket.once('data', (chunk) => {
        const line = chunk.toString('latin1').split('\r\n')[0]!;
        if (!line.includes(' 200 ')) return resolve(line);
        socket.write(`GET /tunnelled HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
        let rest = '';
        socket.on('data', (more) => (rest += more.toString('latin1')));
        socket.on('end', () => resolve(`${line}\n${rest}`));
      });
      socket.on('error', reject);
    });

  it('forwards to the allowed host and port, plain and tunnelled', async () => {
    expect(await viaProxy(`http://127.0.0.1:${port(allowed)}/page`)).toEqual({ status: 200, body: 'allowed /page' });
    expect(await connect(`127.0.0.1:${port(allowed)}`)).toMatch(/200 Connection Established[\s\S]*allowed \/tunnelled/);
  });

  it('refuses another loopback port, a metadata address, a name that resolves inside and a name rebound to loopback, never dialling them', async () => {
    for (const url of [
      `http://127.0.0.1:${port(other)}/x`,
      'http://169.254.169.254/latest/meta-data/',
      `http://inside.test:${port(other)}/y`,
      `http://rebind.test:${port(other)}/z`,
    ]) {
      expect((await viaProxy(url)).status).toBe(403);
    }
    for (const target of [
      `127.0.0.1:${port(other)}`,
      `inside.test:${port(other)}`,
      `rebind.test:${port(other)}`,
      '169.254.169.254:80',
    ]) {
      expect(await connect(target)).toMatch(/403/);
    }
    expect(otherSaw).toEqual([]);
  });
});
