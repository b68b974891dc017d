import * as http from 'node:http';
import { FetchError, GuardedHttpAgent, HttpFetcher, AllowHosts, systemResolver } from '@app/fetch';
import { type CountingServer, startServer, stubResolver } from './servers';

/**
 * The guard against real sockets, on loopback only: a `target` server that is never allowed
 * counts every TCP connection it accepts, and must see none, whichever spelling of its address
 * (or DNS name, or redirect) is used to reach it. `allowed` is the one server the fetcher may use.
 */
let target: CountingServer;
let allowed: CountingServer;
let fetcher: HttpFetcher;

beforeAll(async () => {
  target = await startServer((_req, res) => res.end('secret'), { ipv6: true });
  allowed = await startServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(302, { location: to }).end();
    } else if (url.pathname.startsWith('/hops/')) {
      const n = Number(url.pathname.split('/')[2]);
      if (n > 0) res.writeHead(301, { location: `/hops/${n - 1}` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('landed');
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    }
  });
  fetcher = new HttpFetcher({
    allowHosts: [`127.0.0.1:${allowed.port}`],
    resolver: stubResolver({ 'evil.test': ['127.0.0.1'], 'evil6.test': ['::1'], localhost: ['127.0.0.1'] }),
    timeoutMs: 5000,
  });
});

afterAll(async () => {
  await fetcher.close();
  await target.close();
  await allowed.close();
});

afterEach(() => {
  // The invariant of this whole file.
  expect(target.connections).toBe(0);
});

async function refused(url: string, code: FetchError['code'] = 'blocked_address'): Promise<FetchError> {
  const err = await fetcher.fetch(url).then(
    () => {
      throw new Error(`${url} was fetched`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  const fe = err as FetchError;
  expect(fe.code).toBe(code);
  const normalised = new URL(url);
  normalised.hash = '';
  expect(fe.url).toBe(normalised.href);
  expect(fe.message.startsWith(`${normalised.href}: `)).toBe(true);
  return fe;
}

describe('every loopback spelling aimed at a non-allowed port is refused before a connection', () => {
  // {p} is the target's port; IPv6 forms run only where the host has IPv6 loopback.
  const forms: Array<[string, string, { ipv6?: boolean }]> = [
    ['dotted', 'http://127.0.0.1:{p}/', {}],
    ['short 127.1', 'http://127.1:{p}/', {}],
    ['short 127.0.1', 'http://127.0.1:{p}/', {}],
    ['decimal', 'http://2130706433:{p}/', {}],
    ['hex', 'http://0x7f000001:{p}/', {}],
    ['dotted hex', 'http://0x7f.0.0.1:{p}/', {}],
    ['octal', 'http://0177.0.0.1:{p}/', {}],
    ['mixed hex/decimal short', 'http://0x7f.0.1:{p}/', {}],
    ['0.0.0.0 (dials the local host on Linux)', 'http://0.0.0.0:{p}/', {}],
    ['0', 'http://0:{p}/', {}],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:{p}/', {}],
    ['IPv4-mapped IPv6, hex', 'http://[::ffff:7f00:1]:{p}/', {}],
    ['localhost', 'http://localhost:{p}/', {}],
    ['LOCALHOST. (upper case, trailing dot)', 'http://LOCALHOST.:{p}/', {}],
    ['a.localhost', 'http://a.localhost:{p}/', {}],
    ['credentials in the URL', 'http://user:pw@127.0.0.1:{p}/', {}],
    ['https', 'https://127.0.0.1:{p}/', {}],
    ['fragment and path', 'http://127.0.0.1:{p}/admin#x', {}],
    ['DNS name resolving to 127.0.0.1', 'http://evil.test:{p}/', {}],
    ['[::1]', 'http://[::1]:{p}/', { ipv6: true }],
    ['[::] (dials the local host)', 'http://[::]:{p}/', { ipv6: true }],
    ['DNS name resolving to ::1', 'http://evil6.test:{p}/', { ipv6: true }],
  ];

  it.each(forms)('%s: %s', async (_name, template, opts) => {
    if (opts.ipv6 && !target.ipv6) return;
    const err = await refused(template.replace('{p}', String(target.port)));
    expect(err.message).toMatch(/: refused: .*(loopback|unspecified|IPv6 form)/);
  });

  it('names the reason, e.g. the resolved address for a DNS name', async () => {
    const err = await refused(`http://evil.test:${target.port}/x`);
    // The address a name resolves to is not told (it would map the private network), only its class.
    expect(err.message).toBe(`http://evil.test:${target.port}/x: refused: evil.test resolves to a loopback address`);
  });
});

describe('redirects are checked hop by hop', () => {
  const via = (to: string) => `http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent(to)}`;

  it('follows a redirect within the allowed host', async () => {
    const page = await fetcher.fetch(via('/hops/0'), { maxAgeMs: 0 });
    expect(page.body).toBe('landed');
    expect(page.finalUrl).toBe(`http://127.0.0.1:${allowed.port}/hops/0`);
  });

  it('refuses a redirect from the allowed host to a non-allowed loopback port', async () => {
    const err = await refused(via(`http://127.0.0.1:${target.port}/`));
    expect(err.message).toContain(`redirected to http://127.0.0.1:${target.port}/`);
  });

  it('refuses a redirect to a name that resolves to loopback (decided at connect time, after DNS)', async () => {
    const err = await refused(via(`http://evil.test:${target.port}/`));
    expect(err.message).toContain('evil.test resolves to a loopback address');
    expect(err.message).not.toContain('127.0.0.1 is');
    expect(err.message).toContain(`at http://evil.test:${target.port}/`);
  });

  it('refuses a redirect to the decimal and mapped forms', async () => {
    await refused(via(`http://2130706433:${target.port}/`));
    await refused(via(`http://[::ffff:127.0.0.1]:${target.port}/`));
  });

  it('refuses a redirect to another scheme', async () => {
    await refused(via('file:///etc/passwd'), 'unsupported_scheme');
    await refused(via('gopher://127.0.0.1:70/_x'), 'unsupported_scheme');
  });

  it('allows 5 redirects and refuses the 6th', async () => {
    const page = await fetcher.fetch(`http://127.0.0.1:${allowed.port}/hops/5`, { maxAgeMs: 0 });
    expect(page.body).toBe('landed');
    const err = await refused(`http://127.0.0.1:${allowed.port}/hops/6`, 'too_many_redirects');
    expect(err.message).toContain('more than 5 redirects');
  });
});

describe('allowHosts is host (and port) exact', () => {
  it('a bare host entry opens every port of that host only', async () => {
    const f = new HttpFetcher({
      allowHosts: ['localhost'],
      resolver: stubResolver({ localhost: ['127.0.0.1'], 'evil.test': ['127.0.0.1'] }),
    });
    try {
      expect((await f.fetch(`http://localhost:${allowed.port}/`)).body).toBe('hello');
      // Same address, other spelling: not the allowed host.
      await expect(f.fetch(`http://127.0.0.1:${target.port}/`)).rejects.toMatchObject({ code: 'blocked_address' });
      // Allowed host redirecting to a non-allowed one.
      await expect(
        f.fetch(
          `http://localhost:${allowed.port}/redirect?to=${encodeURIComponent(`http://evil.test:${target.port}/`)}`,
        ),
      ).rejects.toMatchObject({ code: 'blocked_address' });
    } finally {
      await f.close();
    }
  });
});

describe('environment proxies', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('are ignored: a proxy would dial on our behalf, past the guard', async () => {
    // The "proxy" is the target: if the fetcher used it, the target would count a connection.
    process.env.HTTP_PROXY = process.env.http_proxy = `http://127.0.0.1:${target.port}`;
    process.env.NO_PROXY = process.env.no_proxy = '';
    const page = await fetcher.fetch(`http://127.0.0.1:${allowed.port}/via-proxy?`, { maxAgeMs: 0 });
    expect(page.body).toBe('hello');
  });
});

describe('the agent refuses on its own (without the URL pre-check)', () => {
  // Straight through Node's http client, as a future caller that bypassed checkUrl would.
  const agent = new GuardedHttpAgent({
    allowHosts: new AllowHosts(),
    resolver: systemResolver,
    connectTimeoutMs: 2000,
  });
  afterAll(() => agent.destroy());

  it.each([
    ['127.0.0.1', false],
    ['127.1', false],
    ['2130706433', false],
    ['0x7f.1', false],
    ['0177.0.0.1', false],
    ['0.0.0.0', false],
    ['localhost', false],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
  ])('%s', async (host, ipv6) => {
    if (ipv6 && !target.ipv6) return;
    const err = await new Promise<Error>((resolve, reject) => {
      try {
        http
          .get({ host, port: target.port, agent, path: '/' }, () => reject(new Error(`${host} connected`)))
          .on('error', resolve);
      } catch (e) {
        resolve(e as Error); // a literal is refused synchronously in createConnection
      }
    });
    expect(err.message).toMatch(
      /is a loopback address|resolves to a loopback address|is an unspecified address|IPv6 form of a non-public|is not allowed/,
    );
  });
});
