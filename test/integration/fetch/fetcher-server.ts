/**
 * The loopback server the HttpFetcher test files (http-fetcher*.test.ts) fetch from, allowed by
 * every fetcher they make: one server serves every route, and keeps counters the tests read.
 */
import type { ServerResponse } from 'node:http';
import * as zlib from 'node:zlib';
import * as iconv from 'iconv-lite';
import { FetchError, HttpFetcher, type HttpFetcherOptions } from '@app/fetch';
import { type CountingServer, startServer } from './servers';

export let server: CountingServer;
export let base: string;
const fetchers: HttpFetcher[] = [];
export const concurrency = { active: 0, max: 0 };
export const bigBody = { socketClosed: false };
export let hangUps = 0;

function html(
  res: ServerResponse,
  body: Buffer | string,
  contentType = 'text/html',
  headers: Record<string, string> = {},
) {
  res.writeHead(200, { 'content-type': contentType, ...headers }).end(body);
}

/**
 * Starts the server before the calling file's tests, and closes every fetcher made and the server
 * after them; `onRobotsTxt` is called on each request for /robots.txt.
 */
export function useFetcherServer(options: { onRobotsTxt?: () => void } = {}): void {
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      switch (url.pathname) {
        case '/robots.txt':
          options.onRobotsTxt?.();
          return html(
            res,
            'User-agent: WebResearchBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n',
            'text/plain',
          );
        case '/cp1252':
          return html(res, iconv.encode('<p>café “quoted” €</p>', 'windows-1252'), 'text/html; charset=windows-1252');
        case '/sjis':
          return html(
            res,
            iconv.encode(
              '<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body>日本語</body></html>',
              'shift_jis',
            ),
          );
        case '/latin1':
          return html(
            res,
            iconv.encode('<html><head><meta charset="ISO-8859-1"></head><body>déjà vu</body></html>', 'latin1'),
          );
        case '/bom':
          return html(
            res,
            Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve ✓')]),
            url.searchParams.get('type') ?? 'text/plain',
          );
        case '/gzip':
          return html(res, zlib.gzipSync('<p>gzipped ünïcode</p>'), 'text/html; charset=utf-8', {
            'content-encoding': 'gzip',
          });
        case '/br':
          return html(res, zlib.brotliCompressSync('<p>brotli ünïcode</p>'), 'text/html; charset=utf-8', {
            'content-encoding': 'br',
          });
        case '/deflate':
          return html(res, zlib.deflateSync('{"deflated":true}'), 'application/json', {
            'content-encoding': 'deflate',
          });
        case '/bomb': // 64 MiB of zeros, ~64 KiB on the wire
          return html(res, zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024)), 'text/plain', { 'content-encoding': 'gzip' });
        case '/sitemap.xml.gz':
          return html(
            res,
            zlib.gzipSync('<urlset><url><loc>https://x.test/a</loc></url></urlset>'),
            'application/gzip',
          );
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
}

export function make(opts: HttpFetcherOptions = {}): HttpFetcher {
  const f = new HttpFetcher({ allowHosts: [`127.0.0.1:${server.port}`], ...opts });
  fetchers.push(f);
  return f;
}

export async function failure(p: Promise<unknown>): Promise<FetchError> {
  const err = await p.then(
    () => {
      throw new Error('expected a FetchError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}
