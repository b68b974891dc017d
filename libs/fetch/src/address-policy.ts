/**
 * Which addresses and URLs the fetcher may connect to. Pure functions: the connect-time hook
 * (guarded-agent.ts) asks `classifyAddress` about every address it is about to dial, and
 * `checkUrl` refuses obvious cases before any socket exists (and gives the clearest message).
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unique-local'
  | 'mapped-private'
  | 'invalid';

const DESCRIPTIONS: Record<AddressClass, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  cgnat: 'a carrier-grade NAT (shared) address',
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved (non-routable) address',
  'unique-local': 'an IPv6 unique-local address',
  'mapped-private': 'an IPv6 form of a non-public IPv4 address',
  invalid: 'not a valid IP address',
};

export function describeAddressClass(cls: AddressClass): string {
  return DESCRIPTIONS[cls];
}

/**
 * IPv4 in every textual form the C resolver (inet_aton) accepts: 1 to 4 parts, each decimal, octal
 * (leading 0) or hex (0x); the last part fills the remaining bytes (127.1, 2130706433, 0x7f.1).
 * A name that reaches getaddrinfo in one of these forms is dialled as that address, so we must
 * read it the same way.
 */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]*$/.test(p)) n = parseInt(p, 8);
    else if (/^[1-9][0-9]*$/.test(p)) n = Number(p);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  return nums.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
}

/** Eight 16-bit groups, or null. Accepts `::`, an embedded dotted IPv4 tail, brackets and a zone id. */
export function parseIPv6(text: string): number[] | null {
  let s = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const tail = s.slice(s.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(tail)) return null; // only the strict dotted quad is valid here
    const v4 = parseIPv4(tail.replace(/(^|\.)0+(\d)/g, '$1$2'));
    if (v4 === null) return null;
    s = s.slice(0, s.length - tail.length) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
const inV4 = (n: number, base: number, bits: number) => bits === 0 || n >>> (32 - bits) === base >>> (32 - bits);

/** Ranges in match order: the narrower metadata addresses before the ranges that contain them. */
const V4_RANGES: Array<[number, number, AddressClass]> = [
  [v4(0, 0, 0, 0), 32, 'unspecified'],
  [v4(0, 0, 0, 0), 8, 'reserved'], // "this network": 0.x.y.z is dialled as the local host on some stacks
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(169, 254, 169, 254), 32, 'metadata'], // AWS, GCP, Azure, OCI, DigitalOcean...
  [v4(169, 254, 170, 2), 32, 'metadata'], // AWS ECS task metadata
  [v4(169, 254, 0, 0), 16, 'link-local'],
  [v4(100, 100, 100, 200), 32, 'metadata'], // Alibaba Cloud
  [v4(100, 64, 0, 0), 10, 'cgnat'],
  [v4(192, 0, 0, 0), 24, 'reserved'], // IETF protocol assignments
  [v4(192, 0, 2, 0), 24, 'reserved'], // documentation
  [v4(198, 51, 100, 0), 24, 'reserved'],
  [v4(203, 0, 113, 0), 24, 'reserved'],
  [v4(198, 18, 0, 0), 15, 'reserved'], // benchmarking
  [v4(192, 88, 99, 0), 24, 'reserved'], // 6to4 relay anycast
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(255, 255, 255, 255), 32, 'broadcast'],
  [v4(240, 0, 0, 0), 4, 'reserved'],
];

function classifyV4(n: number): AddressClass {
  for (const [base, bits, cls] of V4_RANGES) if (inV4(n, base, bits)) return cls;
  return 'public';
}

/** An IPv6 address that carries an IPv4 one (mapped, translated, NAT64, 6to4) is as reachable as it. */
function embedded(n: number): AddressClass {
  return classifyV4(n >>> 0) === 'public' ? 'public' : 'mapped-private';
}

function classifyV6(h: number[]): AddressClass {
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  const low32 = h[6] * 0x10000 + h[7];
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && h[7] === 1) return 'loopback';
  if (zeros(0, 5) && h[5] === 0xffff) return embedded(low32); // ::ffff:a.b.c.d
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) return embedded(low32); // ::ffff:0:a.b.c.d (SIIT)
  if (zeros(0, 6)) return embedded(low32) === 'public' ? 'reserved' : 'mapped-private'; // deprecated ::a.b.c.d
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return embedded(low32); // NAT64 well-known prefix
  if (h[0] === 0x64 && h[1] === 0xff9b && h[2] === 1) return 'reserved'; // local-use NAT64
  if (h[0] === 0x2002) return embedded(h[1] * 0x10000 + h[2]); // 6to4
  if (h[0] === 0xfd00 && h[1] === 0x0ec2 && zeros(2, 7) && h[7] === 0x254) return 'metadata'; // AWS IMDS over IPv6
  if ((h[0] & 0xfe00) === 0xfc00) return 'unique-local';
  if ((h[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((h[0] & 0xff00) === 0xff00) return 'multicast';
  if ((h[0] & 0xffc0) === 0xfec0) return 'reserved'; // deprecated site-local
  if (h[0] === 0x2001 && h[1] === 0x0db8) return 'reserved'; // documentation
  if (h[0] === 0x3fff && h[1] < 0x1000) return 'reserved'; // documentation (3fff::/20)
  if (h[0] === 0x2001 && h[1] < 0x0200) return 'reserved'; // IETF protocol assignments, Teredo
  if (h[0] === 0x0100 && zeros(1, 4)) return 'reserved'; // discard-only
  if ((h[0] & 0xe000) !== 0x2000) return 'reserved'; // only 2000::/3 is allocated global unicast
  return 'public';
}

/**
 * The verdict for one IP address in any textual form (IPv4 in inet_aton forms, IPv6 with or
 * without brackets or zone). Anything that is not an address is `invalid` (and thus refused).
 */
export function classifyAddress(ip: string): AddressClass {
  const text = ip.trim();
  if (text.includes(':')) {
    const groups = parseIPv6(text);
    return groups ? classifyV6(groups) : 'invalid';
  }
  const n = parseIPv4(text);
  return n === null ? 'invalid' : classifyV4(n);
}

/** Host names that resolve to loopback by convention without asking DNS (RFC 6761). */
export function isLocalhostName(host: string): boolean {
  const h = stripTrailingDot(host.toLowerCase());
  return h === 'localhost' || h.endsWith('.localhost') || h === 'localhost.localdomain';
}

const stripTrailingDot = (h: string) => (h.endsWith('.') ? h.slice(0, -1) : h);
/** URL hostname -> the bare form net.connect gets ("[::1]" -> "::1", "a.b." -> "a.b"). */
export const bareHost = (h: string) => stripTrailingDot(h.replace(/^\[(.*)\]$/, '$1').toLowerCase());
export const isIpLiteral = (h: string) => /^[\d.]+$/.test(h) || h.includes(':');

/**
 * FETCH_ALLOW_HOSTS: exact `host` (any port) or `host:port` entries that skip the address policy,
 * for tests and private deployments. Entries are canonicalised like URLs are, so `127.1:80`
 * and `127.0.0.1:80` are the same entry.
 */
export class AllowHosts {
  private readonly anyPort = new Set<string>();
  private readonly withPort = new Set<string>();

  constructor(entries: readonly string[] = []) {
    for (const raw of entries.map((e) => e.trim()).filter(Boolean)) {
      let url: URL;
      try {
        url = new URL(`http://${raw}`);
      } catch {
        throw new Error(`allowHosts: "${raw}" is not a host or host:port`);
      }
      const host = bareHost(url.hostname);
      // URL drops :80 as the default port, so look at the entry itself to tell "host" from "host:80".
      const explicitPort = /:\d+$/.test(raw) ? url.port || '80' : '';
      if (explicitPort) this.withPort.add(`${host}:${explicitPort}`);
      else this.anyPort.add(host);
    }
  }

  matches(host: string, port: number | string): boolean {
    const h = bareHost(host);
    return this.anyPort.has(h) || this.withPort.has(`${h}:${port}`);
  }

  get size(): number {
    return this.anyPort.size + this.withPort.size;
  }
}

export type UrlVerdict =
  | { ok: true; url: URL }
  | {
      ok: false;
      code: 'invalid_url' | 'unsupported_scheme' | 'blocked_address';
      reason: string;
      addressClass?: AddressClass;
      href?: string;
    };

export const defaultPort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/**
 * The checks that need no DNS: scheme, credentials, IP literals in any form, localhost names.
 * Host names that resolve to a refused address are caught at connect time, not here.
 */
export function checkUrl(raw: string, allow: AllowHosts = new AllowHosts()): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw.trim()); // WHATWG: canonicalises 2130706433, 0x7f.1, 0177.0.0.1, fullwidth digits...
  } catch {
    return { ok: false, code: 'invalid_url', reason: 'not a valid absolute URL' };
  }
  url.hash = ''; // never sent; keeps cache keys and error URLs canonical
  const href = url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      code: 'unsupported_scheme',
      reason: `the ${url.protocol.slice(0, -1)} scheme is not fetched (only http and https)`,
      href,
    };
  }
  if (!url.hostname) return { ok: false, code: 'invalid_url', reason: 'the URL has no host', href };
  const host = bareHost(url.hostname);
  if (allow.matches(host, defaultPort(url))) return { ok: true, url };
  if (isIpLiteral(host)) {
    const cls = classifyAddress(host);
    if (cls !== 'public')
      return {
        ok: false,
        code: 'blocked_address',
        reason: `${host} is ${describeAddressClass(cls)}`,
        addressClass: cls,
        href,
      };
  } else if (isLocalhostName(host)) {
    return {
      ok: false,
      code: 'blocked_address',
      reason: `${host} is a loopback host name`,
      addressClass: 'loopback',
      href,
    };
  }
  // Checked after the address so a credentialed internal URL is reported as what it is.
  if (url.username || url.password) {
    return { ok: false, code: 'invalid_url', reason: 'credentials in URLs are not accepted', href };
  }
  return { ok: true, url };
}

/** FETCH_ALLOW_HOSTS as configured: comma- or space-separated entries. */
export function parseAllowHosts(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}
