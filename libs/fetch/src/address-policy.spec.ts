import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { AllowHosts, checkUrl, classifyAddress, parseAllowHosts, parseIPv4 } from './address-policy';
import { FetchError } from './fetcher.port';
import { GuardedHttpAgent, GuardedHttpsAgent, type Resolver } from './guarded-agent';
import { HttpFetcher } from './http-fetcher';

/**
 * The guard's decisions, never its sockets: nothing in this file can reach a non-loopback
 * address even if the guard were wrong, because Node's own createConnection is replaced by a
 * recorder for the agent tests (see `dialled`).
 */

// [payload, expected verdict]: 'ok', or the FetchError code (with the address class for refusals).
const URL_PAYLOADS: Array<[string, string]> = [
  ['http://127.0.0.1/', 'blocked_address:loopback'],
  ['http://127.255.255.254:8080/x', 'blocked_address:loopback'],
  ['http://2130706433/', 'blocked_address:loopback'],
  ['http://0177.0.0.1/', 'blocked_address:loopback'],
  ['http://0x7f000001/', 'blocked_address:loopback'],
  ['http://0x7f.0.0.1/', 'blocked_address:loopback'],
  ['http://0x7f.1/', 'blocked_address:loopback'],
  ['http://127.1/', 'blocked_address:loopback'],
  ['http://127.0.1/', 'blocked_address:loopback'],
  ['http://017700000001/', 'blocked_address:loopback'],
  ['http://0x7f.0.0.1./', 'blocked_address:loopback'],
  ['http://%31%32%37.0.0.1/', 'blocked_address:loopback'],
  ['http://１２７.0.0.1/', 'blocked_address:loopback'], // fullwidth digits
  ['http://[::1]/', 'blocked_address:loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'blocked_address:loopback'],
  ['http://[::ffff:127.0.0.1]/', 'blocked_address:mapped-private'],
  ['http://[::ffff:7f00:1]/', 'blocked_address:mapped-private'],
  ['http://[0:0:0:0:0:ffff:127.0.0.1]/', 'blocked_address:mapped-private'],
  ['http://[::ffff:10.0.0.1]/', 'blocked_address:mapped-private'],
  ['http://[::ffff:169.254.169.254]/', 'blocked_address:mapped-private'],
  ['http://[::127.0.0.1]/', 'blocked_address:mapped-private'], // deprecated IPv4-compatible
  ['http://[64:ff9b::10.0.0.1]/', 'blocked_address:mapped-private'], // NAT64
  ['http://[2002:7f00:1::]/', 'blocked_address:mapped-private'], // 6to4 of 127.0.0.1
  ['http://0.0.0.0/', 'blocked_address:unspecified'],
  ['http://0/', 'blocked_address:unspecified'],
  ['http://[::]/', 'blocked_address:unspecified'],
  ['http://10.0.0.1/', 'blocked_address:private'],
  ['http://10.255.255.255/', 'blocked_address:private'],
  ['http://012.0.0.1/', 'blocked_address:private'], // octal 10
  ['http://167772161/', 'blocked_address:private'], // decimal 10.0.0.1
  ['http://172.16.5.4/', 'blocked_address:private'],
  ['http://172.31.255.255/', 'blocked_address:private'],
  ['http://192.168.1.1/', 'blocked_address:private'],
  ['http://0xc0.0xa8.1.1/', 'blocked_address:private'],
  ['http://169.254.169.254/latest/meta-data/', 'blocked_address:metadata'],
  ['http://2852039166/latest/meta-data/', 'blocked_address:metadata'], // decimal 169.254.169.254
  ['http://0xa9fea9fe/', 'blocked_address:metadata'],
  ['http://[fd00:ec2::254]/latest/meta-data/', 'blocked_address:metadata'],
  ['http://100.100.100.200/', 'blocked_address:metadata'],
  ['http://169.254.1.1/', 'blocked_address:link-local'],
  ['http://[fe80::1]/', 'blocked_address:link-local'],
  ['http://[febf::1]/', 'blocked_address:link-local'],
  ['http://100.64.0.1/', 'blocked_address:cgnat'],
  ['http://100.127.255.254/', 'blocked_address:cgnat'],
  ['http://[fd00::1]/', 'blocked_address:unique-local'],
  ['http://[fc00::1]/', 'blocked_address:unique-local'],
  ['http://224.0.0.1/', 'blocked_address:multicast'],
  ['http://[ff02::1]/', 'blocked_address:multicast'],
  ['http://255.255.255.255/', 'blocked_address:broadcast'],
  ['http://4294967295/', 'blocked_address:broadcast'],
  ['http://240.0.0.1/', 'blocked_address:reserved'],
  ['http://192.0.2.1/', 'blocked_address:reserved'],
  ['http://198.18.0.1/', 'blocked_address:reserved'],
  ['http://0.1.2.3/', 'blocked_address:reserved'],
  ['http://[2001:db8::1]/', 'blocked_address:reserved'],
  ['http://[fec0::1]/', 'blocked_address:reserved'],
  ['http://[100::1]/', 'blocked_address:reserved'],
  ['http://localhost/', 'blocked_address:loopback'],
  ['http://localhost./', 'blocked_address:loopback'],
  ['http://LOCALHOST:8080/', 'blocked_address:loopback'],
  ['http://app.localhost/', 'blocked_address:loopback'],
  ['http://user@127.0.0.1/', 'blocked_address:loopback'],
  ['http://user:pass@10.0.0.1/', 'blocked_address:private'],
  ['http://example.com@127.0.0.1/', 'blocked_address:loopback'],
  ['http://127.0.0.1#@example.com/', 'blocked_address:loopback'],
  ['http://user:pass@example.com/', 'invalid_url'],
  ['ftp://example.com/file', 'unsupported_scheme'],
  ['file:///etc/passwd', 'unsupported_scheme'],
  ['gopher://127.0.0.1:6379/_INFO', 'unsupported_scheme'],
  ['dict://127.0.0.1:11211/stat', 'unsupported_scheme'],
  ['data:text/html,<script>1</script>', 'unsupported_scheme'],
  ['javascript:alert(1)', 'unsupported_scheme'],
  ['ws://example.com/', 'unsupported_scheme'],
  ['//127.0.0.1/', 'invalid_url'],
  ['http://', 'invalid_url'],
  ['http://4294967296/', 'invalid_url'],
  ['http://[::ffff:127.0.0.1/', 'invalid_url'],
  ['not a url', 'invalid_url'],
  // Allowed: DNS names are judged at connect time, public literals pass.
  ['http://8.8.8.8/', 'ok'],
  ['https://1.1.1.1:443/', 'ok'],
  ['http://[2606:4700:4700::1111]/', 'ok'],
  ['http://[::ffff:8.8.8.8]/', 'ok'],
  ['https://example.com/path?q=1', 'ok'],
  ['http://127.0.0.1.nip.io/', 'ok'],
  ['http://172.32.0.1/', 'ok'],
  ['http://100.128.0.1/', 'ok'],
  ['http://192.169.0.1/', 'ok'],
];

describe('checkUrl: SSRF payloads', () => {
  it('covers at least 40 payloads', () => expect(URL_PAYLOADS.length).toBeGreaterThanOrEqual(40));

  it.each(URL_PAYLOADS)('%s -> %s', (url, expected) => {
    const v = checkUrl(url);
    const got = v.ok ? 'ok' : v.code === 'blocked_address' ? `${v.code}:${v.addressClass}` : v.code;
    expect(got).toBe(expected);
  });

  it('gives a sentence naming the address and why', () => {
    expect(checkUrl('http://0x0a.0.0.1/')).toMatchObject({ ok: false, reason: '10.0.0.1 is a private address' });
  });

  it('allowHosts opens exact host or host:port only', () => {
    const allow = new AllowHosts(['127.0.0.1:8123', 'localhost', '[::1]:9000', 'intranet.example']);
    expect(checkUrl('http://127.0.0.1:8123/', allow).ok).toBe(true);
    expect(checkUrl('http://2130706433:8123/', allow).ok).toBe(true); // the same host once canonical
    expect(checkUrl('http://127.0.0.1:8124/', allow).ok).toBe(false);
    expect(checkUrl('http://127.0.0.1/', allow).ok).toBe(false);
    expect(checkUrl('http://localhost:1/', allow).ok).toBe(true);
    expect(checkUrl('http://localhost./', allow).ok).toBe(true);
    expect(checkUrl('http://a.localhost/', allow).ok).toBe(false);
    expect(checkUrl('http://[::1]:9000/', allow).ok).toBe(true);
    expect(checkUrl('http://[::1]:9001/', allow).ok).toBe(false);
    expect(new AllowHosts(['127.0.0.1:80']).matches('127.0.0.1', 80)).toBe(true);
    expect(new AllowHosts(['127.0.0.1:80']).matches('127.0.0.1', 81)).toBe(false);
    expect(parseAllowHosts(' 127.0.0.1:8123, localhost  x.test ')).toEqual(['127.0.0.1:8123', 'localhost', 'x.test']);
  });
});

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0x7F000001', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.15.255.255', 'public'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['FD00:0EC2:0:0:0:0:0:254', 'metadata'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.63.255.255', 'public'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['::ffff:127.0.0.1', 'mapped-private'],
    ['::ffff:7f00:1', 'mapped-private'],
    ['::ffff:0:7f00:1', 'mapped-private'],
    ['::ffff:100.64.0.1', 'mapped-private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::7f00:1', 'mapped-private'],
    ['64:ff9b::7f00:1', 'mapped-private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:a9fe:a9fe::1', 'mapped-private'],
    ['2001::1', 'reserved'], // Teredo
    ['4000::1', 'reserved'], // outside 2000::/3
    ['ff05::2', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['example.com', 'invalid'],
    ['1.2.3.4.5', 'invalid'],
    ['256.0.0.1', 'invalid'],
    ['1::2::3', 'invalid'],
    ['', 'invalid'],
  ])('%s is %s', (ip, cls) => expect(classifyAddress(ip)).toBe(cls));

  it('reads IPv4 the way inet_aton does', () => {
    expect(parseIPv4('127.1')).toBe(0x7f000001);
    expect(parseIPv4('0x7f.0x1')).toBe(0x7f000001);
    expect(parseIPv4('127.0.0.0x1')).toBe(0x7f000001);
    expect(parseIPv4('127.16777216')).toBeNull(); // last part overflows its 3 bytes
    expect(parseIPv4('08.0.0.1')).toBeNull(); // 8 is not octal
  });
});

/**
 * The connect-time hook with name resolution stubbed and Node's createConnection replaced by a
 * recorder that behaves like net.connect (literals are dialled, names go through options.lookup)
 * but never opens a socket: it only records what would have been dialled.
 */
describe('the agents decide at connect time', () => {
  let dialled: string[];
  const fakeConnect = (options: net.TcpNetConnectOpts, cb: (err: Error | null, s?: net.Socket) => void) => {
    const host = options.host ?? 'localhost';
    const refuse = (what: string) => {
      dialled.push(what);
      cb(new Error(`test double: would dial ${what}`));
    };
    if (net.isIP(host)) refuse(host);
    else
      options.lookup!(host, { all: true }, (err, addresses) => {
        if (err) return cb(err);
        refuse((addresses as Array<{ address: string }>).map((a) => a.address).join(','));
      });
    return undefined;
  };

  beforeEach(() => {
    dialled = [];
    jest.spyOn(http.Agent.prototype, 'createConnection').mockImplementation(fakeConnect as never);
    jest.spyOn(https.Agent.prototype, 'createConnection').mockImplementation(fakeConnect as never);
  });
  afterEach(() => jest.restoreAllMocks());

  const resolver: Resolver = async (host) => {
    const table: Record<string, string[]> = {
      'private.test': ['10.0.0.1'],
      'private172.test': ['172.16.5.4'],
      'home.test': ['192.168.1.1'],
      'metadata.test': ['169.254.169.254'],
      'metadata6.test': ['fd00:ec2::254'],
      'linklocal.test': ['169.254.10.10'],
      'linklocal6.test': ['fe80::1'],
      'cgnat.test': ['100.64.0.1'],
      'ula.test': ['fd00::1'],
      'mapped.test': ['::ffff:10.0.0.1'],
      'compat.test': ['::a00:1'], // ipaddr.js (request-filtering-agent) calls this unicast
      'zero.test': ['0.0.0.0'],
      'mixed.test': ['93.184.216.34', '10.0.0.1'],
      'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
      'as112.test': ['192.31.196.1'], // public to us, refused by request-filtering-agent's own check
    };
    const answers = table[host];
    if (!answers) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  function attempt(agent: http.Agent, host: string, port = 80): Promise<string> {
    return new Promise((resolve) => {
      const create = agent.createConnection.bind(agent) as unknown as (
        o: object,
        cb: (err: Error | null) => void,
      ) => unknown;
      try {
        create({ host, port }, (err) => resolve(err ? err.message : 'connected'));
      } catch (e) {
        resolve((e as Error).message);
      }
    });
  }

  const guard = (allow: string[] = []) => ({ allowHosts: new AllowHosts(allow), resolver, connectTimeoutMs: 1000 });

  it.each([
    ['private.test', 'private.test resolves to a private address'],
    ['private172.test', 'private172.test resolves to a private address'],
    ['home.test', 'home.test resolves to a private address'],
    ['metadata.test', 'metadata.test resolves to a cloud metadata address'],
    ['metadata6.test', 'metadata6.test resolves to a cloud metadata address'],
    ['linklocal.test', 'linklocal.test resolves to a link-local address'],
    ['linklocal6.test', 'linklocal6.test resolves to a link-local address'],
    ['cgnat.test', 'cgnat.test resolves to a carrier-grade NAT (shared) address'],
    ['ula.test', 'ula.test resolves to an IPv6 unique-local address'],
    ['mapped.test', 'mapped.test resolves to an IPv6 form of a non-public IPv4 address'],
    ['compat.test', 'compat.test resolves to an IPv6 form of a non-public IPv4 address'],
    ['zero.test', 'zero.test resolves to an unspecified address'],
    ['mixed.test', 'mixed.test resolves to a private address'],
    ['10.0.0.1', '10.0.0.1 is a private address'],
    ['169.254.169.254', '169.254.169.254 is a cloud metadata address'],
    ['100.64.0.1', '100.64.0.1 is a carrier-grade NAT (shared) address'],
    ['fd00::1', 'fd00::1 is an IPv6 unique-local address'],
    ['::ffff:169.254.169.254', 'is an IPv6 form of a non-public IPv4 address'],
    ['localhost', 'localhost is a loopback address'],
  ])('%s is refused: %s', async (host, reason) => {
    for (const agent of [new GuardedHttpAgent(guard()), new GuardedHttpsAgent(guard())]) {
      expect(await attempt(agent, host)).toContain(reason);
    }
    expect(dialled).toEqual([]);
  });

  it('a public name and a public literal pass (to the recorder)', async () => {
    const agent = new GuardedHttpAgent(guard());
    expect(await attempt(agent, 'public.test')).toBe(
      'test double: would dial 93.184.216.34,2606:2800:220:1:248:1893:25c8:1946',
    );
    expect(await attempt(agent, '93.184.216.34')).toBe('test double: would dial 93.184.216.34');
  });

  it('request-filtering-agent still checks underneath our classifier', async () => {
    expect(await attempt(new GuardedHttpAgent(guard()), 'as112.test')).toMatch(/192\.31\.196\.1.* is not allowed/);
    expect(dialled).toEqual([]);
  });

  it('allowHosts is matched on the host:port being dialled', async () => {
    const agent = new GuardedHttpAgent(guard(['private.test:8123', '10.0.0.2']));
    expect(await attempt(agent, 'private.test', 8123)).toBe('test double: would dial 10.0.0.1');
    expect(await attempt(agent, 'private.test', 8124)).toContain('private.test resolves to a private address');
    expect(await attempt(agent, '10.0.0.2', 1)).toBe('test double: would dial 10.0.0.2');
    // An allowed IP does not open names that resolve to it.
    expect(await attempt(agent, 'private.test', 80)).toContain('resolves to a private address');
    expect(dialled).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  it('the fetcher turns a connect-time refusal into a per-URL FetchError', async () => {
    const fetcher = new HttpFetcher({ resolver });
    try {
      const err = await fetcher.fetch('http://metadata.test/latest/meta-data/').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FetchError);
      expect(err).toMatchObject({
        code: 'blocked_address',
        url: 'http://metadata.test/latest/meta-data/',
        message: 'http://metadata.test/latest/meta-data/: refused: metadata.test resolves to a cloud metadata address',
      });
      const https = await fetcher.fetch('https://cgnat.test/').catch((e: unknown) => e);
      expect(https).toMatchObject({
        code: 'blocked_address',
        message: expect.stringContaining('cgnat.test resolves to a carrier-grade NAT'),
      });
      // The same path lets a public name through to the (recording) dialler.
      expect(await fetcher.fetch('http://public.test/').catch((e: unknown) => e)).toMatchObject({
        code: 'unreachable',
      });
      expect(dialled).toEqual(['93.184.216.34,2606:2800:220:1:248:1893:25c8:1946']);
    } finally {
      await fetcher.close();
    }
  });
});
