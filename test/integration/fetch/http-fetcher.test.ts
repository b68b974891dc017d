import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { ServerResponse } from 'node:http';
import * as iconv from 'iconv-lite';
import { FetchError, HttpFetcher, type HttpFetcherOptions } from '@app/fetch';
import { type CountingServer, sleep, startServer, stubResolver } from './servers';

/**
 * The fetcher's behaviour on an allowed loopback server: decoding, limits, errors, politeness
 * and caching. Every route is served by one server whose counters the tests read.
 */
let server: CountingServer;
let base: string;
const fetchers: HttpFetcher[] = [];
const concurrency = { active: 0, max: 0 };
const bigBody = { socketClosed: false };
let robotsHits = 0;
let hangUps = 0;

function html(res: ServerResponse, body: Buffer | string, contentType = 'text/html', headers: Record<string, string> = {}) {
  res.writeHead(200, { 'content-type': contentType, ...headers }).end(body);
}

beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    switch (url.pathname) {
      case '/robots.txt':
        robotsHits++;
        return html(res, 'User-agent: WebResearchBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n', 'text/plain');
      case '/cp1252':
        return html(res, iconv.encode('<p>café “quoted” €</p>', 'windows-1252'), 'text/html; charset=windows-1252');
      case '/sjis':
        return html(res, iconv.encode('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body>日本語</body></html>', 'shift_jis'));
      case '/latin1':
        return html(res, iconv.encode('<html><head><meta charset="ISO-8859-1"></head><body>déjà vu</body></html>', 'latin1'));
      case '/bom':
        return html(res, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve ✓')]), url.searchParams.get('type') ?? 'text/plain');
      case '/gzip':
        return html(res, zlib.gzipSync('<p>gzipped ünïcode</p>'), 'text/html; charset=utf-8', { 'content-encoding': 'gzip' });
      case '/br':
        return html(res, zlib.brotliCompressSync('<p>brotli ünïcode</p>'), 'text/html; charset=utf-8', { 'content-encoding': 'br' });
      case '/deflate':
        return html(res, zlib.deflateSync('{"deflated":true}'), 'application/json', { 'content-encoding': 'deflate' });
      case '/bomb': // 64 MiB of zeros, ~64 KiB on the wire
        return html(res, zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024)), 'text/plain', { 'content-encoding': 'gzip' });
      case '/sitemap.xml.gz':
        return html(res, zlib.gzipSync('<urlset><url><loc>https://x.test/a</loc></url></urlset>'), 'application/gzip');
      case '/sitemap-bomb.xml.gz': // 64 MiB unpacked
        return html(res, zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024)), 'application/x-gzip');
      case '/hang-up-once':
        // The first request dies without an answer, as on a keep-alive socket the server just closed.
        if (hangUps++ === 0) return req.socket.destroy();
        return html(res, '<p>second time lucky</p>');
      case '/endless': {
        // Never ends on its own: only a client that stops reading (and closes) ends it.
        bigBody.socketClosed = false;
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'a');
        const timer = setInterval(() => res.write(chunk), 2);
        res.on('close', () => {
          clearInterval(timer);
          bigBody.socketClosed = true;
        });
        return;
      }
      case '/silent':
        return; // accepts, never answers
      case '/png':
        return html(res, Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
      case '/octet-pdf':
        return html(res, Buffer.from('%PDF-1.7\n% a PDF served as bytes\n'), 'application/octet-stream');
      case '/octet-other':
        return html(res, Buffer.from('MZ\x90\x00 not a document'), 'application/octet-stream');
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>not here</h1>');
        return;
      case '/slow': {
        concurrency.active++;
        concurrency.max = Math.max(concurrency.max, concurrency.active);
        setTimeout(() => {
          concurrency.active--;
          html(res, `slow ${url.searchParams.get('i')}`, 'text/plain');
        }, 60);
        return;
      }
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
        return;
      case '/no-store':
        return html(res, 'volatile', 'text/plain', { 'cache-control': 'no-store' });
      default:
        return html(res, `<p>page ${url.pathname}${url.search}</p>`);
    }
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await Promise.all(fetchers.map((f) => f.close()));
  await server.close();
});

function make(opts: HttpFetcherOptions = {}): HttpFetcher {
  const f = new HttpFetcher({ allowHosts: [`127.0.0.1:${server.port}`], ...opts });
  fetchers.push(f);
  return f;
}

async function failure(p: Promise<unknown>): Promise<FetchError> {
  const err = await p.then(
    () => {
      throw new Error('expected a FetchError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}

describe('a connection that dies before any answer', () => {
  it('is tried again once, on a fresh socket (a GET is safe to repeat)', async () => {
    const page = await make().fetch(`${base}/hang-up-once`);
    expect(page.body.toString()).toContain('second time lucky');
    expect(hangUps).toBe(2);
  });
});

describe('decoding', () => {
  const f = () => make();

  it('windows-1252 from the Content-Type header', async () => {
    const page = await f().fetch(`${base}/cp1252`);
    expect(page).toMatchObject({ status: 200, contentType: 'text/html', charset: 'windows-1252', body: '<p>café “quoted” €</p>', fromCache: false });
  });

  it('Shift_JIS from <meta http-equiv>', async () => {
    const page = await f().fetch(`${base}/sjis`);
    expect(page.charset).toBe('shift_jis');
    expect(page.body).toContain('<body>日本語</body>');
  });

  it('ISO-8859-1 from <meta charset>, decoded as browsers do (windows-1252)', async () => {
    const page = await f().fetch(`${base}/latin1`);
    expect(page.charset).toBe('windows-1252');
    expect(page.body).toContain('déjà vu');
  });

  it('UTF-8 from a BOM, which is stripped', async () => {
    const page = await f().fetch(`${base}/bom`);
    expect(page).toMatchObject({ charset: 'utf-8', body: 'naïve ✓', bytes: 3 + Buffer.byteLength('naïve ✓') });
  });

  it('the BOM wins over a contradicting header', async () => {
    const page = await f().fetch(`${base}/bom?type=${encodeURIComponent('text/plain; charset=iso-8859-1')}`);
    expect(page.body).toBe('naïve ✓');
  });

  it.each([
    ['gzip', '<p>gzipped ünïcode</p>'],
    ['br', '<p>brotli ünïcode</p>'],
    ['deflate', '{"deflated":true}'],
  ])('%s bodies are decoded; bytes counts the decoded size', async (route, text) => {
    const page = await f().fetch(`${base}/${route}`);
    expect(page.body).toBe(text);
    expect(page.bytes).toBe(Buffer.byteLength(text));
  });
});

describe('limits and failures', () => {
  it('stops reading past maxBytes (too_large) and closes the connection', async () => {
    const err = await failure(make().fetch(`${base}/endless`, { maxBytes: 100_000 }));
    expect(err.code).toBe('too_large');
    expect(err.message).toBe(`${base}/endless: body exceeds 100000 bytes`);
    for (let i = 0; i < 50 && !bigBody.socketClosed; i++) await sleep(20);
    expect(bigBody.socketClosed).toBe(true);
  });

  it('counts decoded bytes, so a gzip bomb stops at the cap', async () => {
    const err = await failure(make().fetch(`${base}/bomb`, { maxBytes: 1024 * 1024 }));
    expect(err.code).toBe('too_large');
  });

  it('times out on a server that never answers', async () => {
    const started = Date.now();
    const err = await failure(make().fetch(`${base}/silent`, { timeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe(`${base}/silent: timed out after 300 ms`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('bounds name resolution + connect by connectTimeoutMs', async () => {
    const f = make({ allowHosts: ['slow.test'], resolver: stubResolver({ 'slow.test': 'hang' }), connectTimeoutMs: 150, timeoutMs: 10_000 });
    const started = Date.now();
    const err = await failure(f.fetch('http://slow.test/'));
    expect(err.code).toBe('timeout');
    expect(err.message).toContain('connecting to slow.test took longer than 150 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a caller abort ends the fetch', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(make().fetch(`${base}/silent?abort`, { signal: controller.signal }));
    expect(err).toMatchObject({ code: 'timeout', message: `${base}/silent?abort: aborted by the caller` });
  });

  it('refuses non-text types without reading them', async () => {
    const err = await failure(make().fetch(`${base}/png`));
    expect(err).toMatchObject({ code: 'unsupported_type', message: `${base}/png: image/png is not a text type, a PDF or a Word document` });
  });

  it('passes a PDF through as base64, known by its bytes when served as octet-stream; other bytes are refused', async () => {
    const page = await make().fetch(`${base}/octet-pdf`);
    expect(page).toMatchObject({ contentType: 'application/pdf', encoding: 'base64', charset: 'binary' });
    expect(Buffer.from(page.body, 'base64').toString('latin1')).toBe('%PDF-1.7\n% a PDF served as bytes\n');
    const err = await failure(make().fetch(`${base}/octet-other`));
    expect(err).toMatchObject({ code: 'unsupported_type', message: `${base}/octet-other: application/octet-stream is not a text type, a PDF or a Word document` });
  });

  it('HTTP 404 is an http_error with the status', async () => {
    const err = await failure(make().fetch(`${base}/missing`));
    expect(err).toMatchObject({ code: 'http_error', status: 404, message: `${base}/missing: HTTP 404` });
  });

  it('unresolvable names are dns_failure', async () => {
    const f = make({ allowHosts: ['nowhere.test'], resolver: stubResolver({}) });
    expect(await failure(f.fetch('http://nowhere.test/'))).toMatchObject({ code: 'dns_failure' });
  });

  it('invalid URLs and other schemes', async () => {
    expect(await failure(make().fetch('not a url'))).toMatchObject({ code: 'invalid_url', url: 'not a url' });
    expect(await failure(make().fetch('ftp://example.com/x'))).toMatchObject({ code: 'unsupported_scheme' });
  });

  it('https to an allowed host speaks TLS and verifies the certificate', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fetch-tls-'));
    try {
      try {
        execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
          '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
      } catch {
        return; // no openssl here: nothing to serve TLS with
      }
      let connections = 0;
      const tls = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (_q, r) => r.end('tls'));
      tls.on('connection', () => connections++);
      await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
      const port = (tls.address() as AddressInfo).port;
      try {
        const err = await failure(make({ allowHosts: [`127.0.0.1:${port}`] }).fetch(`https://127.0.0.1:${port}/`));
        expect(err.code).toBe('unreachable');
        expect(err.message).toMatch(/self[- ]signed certificate/);
        expect(connections).toBe(1);
      } finally {
        tls.closeAllConnections();
        await new Promise((r) => tls.close(r));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a redirect to an address longer than 8 KB', async () => {
    const err = await failure(make().fetch(`${base}/redirect?to=/${'x'.repeat(9_000)}`));
    expect(err).toMatchObject({ code: 'invalid_url', message: expect.stringContaining('redirected to an address longer than 8192 characters') });
  });

  it('follows redirects and reports the final URL', async () => {
    const page = await make().fetch(`${base}/redirect?to=/landing#frag`);
    expect(page).toMatchObject({ url: `${base}/redirect?to=/landing`, finalUrl: `${base}/landing`, body: '<p>page /landing</p>' });
  });
});

describe('politeness', () => {
  it('never runs more than perHostConcurrency exchanges at once against one host', async () => {
    concurrency.max = 0;
    const f = make({ perHostConcurrency: 2 });
    const pages = await Promise.all(Array.from({ length: 8 }, (_, i) => f.fetch(`${base}/slow?i=${i}`)));
    expect(pages.map((p) => p.body)).toEqual(Array.from({ length: 8 }, (_, i) => `slow ${i}`));
    expect(concurrency.max).toBe(2);
  });

  it('honours robots.txt when asked, fetching it once per origin', async () => {
    robotsHits = 0;
    const f = make();
    const before = server.paths.length;
    const err = await failure(f.fetch(`${base}/private/report`, { respectRobots: true }));
    expect(err).toMatchObject({ code: 'robots_disallowed', message: `${base}/private/report: robots.txt disallows WebResearchBot` });
    expect(server.paths.slice(before)).toEqual(['/robots.txt']); // the page itself was never requested
    expect((await f.fetch(`${base}/public`, { respectRobots: true })).body).toBe('<p>page /public</p>');
    expect(await f.robotsAllowed(`${base}/private/x`)).toBe(false);
    expect(await f.robotsAllowed(`${base}/elsewhere`)).toBe(true);
    expect(robotsHits).toBe(1);
    // A user's explicit extract does not ask robots.txt.
    expect((await f.fetch(`${base}/private/report`)).status).toBe(200);
  });

  it('a missing robots.txt allows everything', async () => {
    const other = await startServer((req, res) => (req.url === '/robots.txt' ? res.writeHead(404).end() : res.writeHead(200, { 'content-type': 'text/plain' }).end('open')));
    try {
      const f = make({ allowHosts: [`127.0.0.1:${other.port}`] });
      expect((await f.fetch(`http://127.0.0.1:${other.port}/anything`, { respectRobots: true })).body).toBe('open');
      expect(other.paths).toEqual(['/robots.txt', '/anything']);
    } finally {
      await other.close();
    }
  });
});

describe('crawling', () => {
  it('a gzip file is unpacked as XML when asked (sitemaps), refused otherwise; a gzip bomb stops at the cap', async () => {
    const f = make();
    expect(await f.fetch(`${base}/sitemap.xml.gz`, { gunzip: true })).toMatchObject({ contentType: 'application/xml', body: '<urlset><url><loc>https://x.test/a</loc></url></urlset>' });
    expect((await failure(f.fetch(`${base}/sitemap.xml.gz`))).code).toBe('unsupported_type');
    const bomb = await failure(f.fetch(`${base}/sitemap-bomb.xml.gz`, { gunzip: true, maxBytes: 1024 * 1024 }));
    expect(bomb).toMatchObject({ code: 'too_large', message: `${base}/sitemap-bomb.xml.gz: unpacked body exceeds 1048576 bytes` });
  });

  it('beforeHop is awaited before every request of the exchange and afterHop called when it ended, redirect hops included', async () => {
    const hops: string[] = [];
    const page = await make().fetch(`${base}/redirect?to=/landed`, { beforeHop: async (url) => void hops.push(`before ${url}`), afterHop: (url) => void hops.push(`after ${url}`) });
    expect(page.finalUrl).toBe(`${base}/landed`);
    expect(hops).toEqual([`before ${base}/redirect?to=/landed`, `after ${base}/redirect?to=/landed`, `before ${base}/landed`, `after ${base}/landed`]);
  });

  it('cache: false neither serves nor stores a copy', async () => {
    const f = make();
    const before = server.requests;
    await f.fetch(`${base}/uncached`, { cache: false });
    await f.fetch(`${base}/uncached`, { cache: false });
    expect((await f.fetch(`${base}/uncached`)).fromCache).toBe(false);
    expect(server.requests).toBe(before + 3);
  });

  it('reads Crawl-delay for our user agent, capped at 30 s', async () => {
    const other = await startServer((req, res) =>
      req.url === '/robots.txt' ? res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 2.5\n') : res.writeHead(200).end(),
    );
    const slow = await startServer((req, res) => (req.url === '/robots.txt' ? res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 3600\n') : res.writeHead(200).end()));
    try {
      const f = make({ allowHosts: [`127.0.0.1:${server.port}`, `127.0.0.1:${other.port}`, `127.0.0.1:${slow.port}`] });
      expect(await f.crawlDelayMs(`http://127.0.0.1:${other.port}/x`)).toBe(2_500);
      expect(await f.crawlDelayMs(`http://127.0.0.1:${slow.port}/x`)).toBe(30_000);
      expect(await f.crawlDelayMs(`${base}/x`)).toBe(0);
    } finally {
      await other.close();
      await slow.close();
    }
  });
});

describe('cache', () => {
  const counts = () => ({ connections: server.connections, requests: server.requests });

  it('a second fetch within max-age opens no connection; maxAgeMs 0 refetches', async () => {
    const f = make();
    const first = await f.fetch(`${base}/cached-1`);
    const after = counts();
    const second = await f.fetch(`${base}/cached-1`);
    expect(second).toEqual({ ...first, fromCache: true });
    expect(counts()).toEqual(after);
    const third = await f.fetch(`${base}/cached-1`, { maxAgeMs: 0 });
    expect(third.fromCache).toBe(false);
    expect(server.requests).toBe(after.requests + 1);
  });

  it('an entry older than maxAgeMs is refetched', async () => {
    const f = make();
    await f.fetch(`${base}/cached-2`);
    await sleep(40);
    const before = server.requests;
    expect((await f.fetch(`${base}/cached-2`, { maxAgeMs: 20 })).fromCache).toBe(false);
    expect(server.requests).toBe(before + 1);
  });

  it('Cache-Control: no-store is not cached', async () => {
    const f = make();
    await f.fetch(`${base}/no-store`);
    expect((await f.fetch(`${base}/no-store`)).fromCache).toBe(false);
  });

  it('the disk cache survives a new fetcher instance', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fetch-cache-'));
    try {
      const first = await make({ cacheDir: dir }).fetch(`${base}/on-disk`);
      expect(fs.readdirSync(dir).filter((n) => n.endsWith('.json'))).toHaveLength(1);
      const after = counts();
      const again = await make({ cacheDir: dir }).fetch(`${base}/on-disk`);
      expect(again).toEqual({ ...first, fromCache: true });
      expect(counts()).toEqual(after);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('concurrent fetches of one URL share a single request', async () => {
    const f = make();
    const before = server.requests;
    const pages = await Promise.all(Array.from({ length: 5 }, () => f.fetch(`${base}/slow?i=shared`)));
    expect(server.requests).toBe(before + 1);
    expect(new Set(pages.map((p) => p.body))).toEqual(new Set(['slow shared']));
  });
});
