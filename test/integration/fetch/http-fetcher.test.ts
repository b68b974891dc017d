/**
 * The fetcher's behaviour on an allowed loopback server (see fetcher-server.ts): retrying a dead
 * connection, decoding, limits and failures.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { sleep, stubResolver } from './servers';
import { base, bigBody, failure, hangUps, make, useFetcherServer } from './fetcher-server';

useFetcherServer();

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
    expect(page).toMatchObject({
      status: 200,
      contentType: 'text/html',
      charset: 'windows-1252',
      body: '<p>café “quoted” €</p>',
      fromCache: false,
    });
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
    const f = make({
      allowHosts: ['slow.test'],
      resolver: stubResolver({ 'slow.test': 'hang' }),
      connectTimeoutMs: 150,
      timeoutMs: 10_000,
    });
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
    expect(err).toMatchObject({
      code: 'unsupported_type',
      message: `${base}/png: image/png is not a text type, a PDF or a Word document`,
    });
  });

  it('passes a PDF through as base64, known by its bytes when served as octet-stream; other bytes are refused', async () => {
    const page = await make().fetch(`${base}/octet-pdf`);
    expect(page).toMatchObject({ contentType: 'application/pdf', encoding: 'base64', charset: 'binary' });
    expect(Buffer.from(page.body, 'base64').toString('latin1')).toBe('%PDF-1.7\n% a PDF served as bytes\n');
    const err = await failure(make().fetch(`${base}/octet-other`));
    expect(err).toMatchObject({
      code: 'unsupported_type',
      message: `${base}/octet-other: application/octet-stream is not a text type, a PDF or a Word document`,
    });
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
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
            '-keyout',
            path.join(dir, 'key.pem'),
            '-out',
            path.join(dir, 'cert.pem'),
          ],
          { stdio: 'ignore' },
        );
      } catch {
        return; // no openssl here: nothing to serve TLS with
      }
      let connections = 0;
      const tls = https.createServer(
        { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) },
        (_q, r) => r.end('tls'),
      );
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
    expect(err).toMatchObject({
      code: 'invalid_url',
      message: expect.stringContaining('redirected to an address longer than 8192 characters'),
    });
  });

  it('follows redirects and reports the final URL', async () => {
    const page = await make().fetch(`${base}/redirect?to=/landing#frag`);
    expect(page).toMatchObject({
      url: `${base}/redirect?to=/landing`,
      finalUrl: `${base}/landing`,
      body: '<p>page /landing</p>',
    });
  });
});
