import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A site built to hurt a crawler or a map, on loopback: every shape that made crawl or map stall
 * a process or run away before they were bounded.
 *  - robots.txt: one `Disallow: /*a*a*a…` rule of 512 KiB (a matcher costing pattern x path
 *    length ran ~10^9 steps per check) and a rule for /private/;
 *  - /sitemap.xml: `longUrls` entries whose paths are ~1,800 characters (multi-KB URLs checked
 *    against that rule), and one entry longer than 8 KB;
 *  - pages: 60,000 unclosed divs after a first paragraph, 20,000 closed nested tags, a `<base>`
 *    with a 1.9 MB path followed by 2,000 relative links, and ordinary pages beside them;
 *  - /spin (not linked): thin text and a script that spins forever once the page has loaded,
 *    for a rendered extract (a browser waiting on it held a rendering slot for minutes);
 *    /scripted (not linked): a page whose text only its script writes.
 * Every request is counted by path.
 */
export interface HostileSite {
  origin: string;
  port: number;
  /** Requests per path. */
  hits: Map<string, number>;
  /** The hostile pages' paths, and the ordinary ones a crawl must read. */
  hostilePaths: readonly string[];
  ordinaryPaths: readonly string[];
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

export const HOSTILE_SHAPES = {
  /** robots.txt with a wildcard rule of `bytes`. */
  robotsBomb: (bytes = 512 * 1024) =>
    `User-agent: *\nDisallow: /private/\nDisallow: /${'*a'.repeat(Math.floor(bytes / 2))}\n`,
  unclosedDivs: () =>
    `<!doctype html><html><head><title>Unclosed</title></head><body><p>Words before sixty thousand unclosed divs.</p>${'<div>'.repeat(60_000)}deep text`,
  nestedTags: () =>
    `<!doctype html><html><head><title>Nested</title></head><body><p>Words before twenty thousand nested tags.</p>${'<span>'.repeat(20_000)}<a href="/ordinary/1">inner link</a>${'</span>'.repeat(20_000)}</body></html>`,
  spinning: () =>
    `<!doctype html><html><head><title>Spinning</title></head><body><p>Thin text.</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 50))</script></body></html>`,
  scripted: () =>
    `<!doctype html><html><head><title>Scripted</title></head><body><div id="app"></div><script>document.getElementById('app').innerHTML = '<p>' + ['Text', 'written', 'by', 'the', 'page', 'script', 'once', 'it', 'ran', 'in', 'the', 'browser.'].join(' ') + '</p>'</script></body></html>`,
  hugeBase: (origin: string) =>
    `<!doctype html><html><head><title>Huge base</title><base href="${origin}/${'b'.repeat(1_900_000)}/"></head><body><p>A page whose base address is 1.9 MB long.</p>${'<a href=x>x</a>'.repeat(2_000)}</body></html>`,
} as const;

export async function startHostileSite(options: { longUrls?: number } = {}): Promise<HostileSite> {
  const longUrls = options.longUrls ?? 5_000;
  const hits = new Map<string, number>();
  let origin = '';
  const ordinaryPaths = ['/', '/ordinary/1', '/ordinary/2', '/ordinary/3'];
  const hostilePaths = ['/unclosed', '/nested', '/huge-base'];
  const robots = HOSTILE_SHAPES.robotsBomb();
  let sitemap: string | null = null;
  let hugeBase: string | null = null;
  const nested = HOSTILE_SHAPES.nestedTags();
  const unclosed = HOSTILE_SHAPES.unclosedDivs();
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const html = (body: string) => response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
    if (path === '/robots.txt') return void response.writeHead(200, { 'Content-Type': 'text/plain' }).end(robots);
    if (path === '/sitemap.xml') {
      sitemap ??= `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
        ...ordinaryPaths,
        ...hostilePaths,
        `/${'z'.repeat(9_000)}`,
        ...Array.from({ length: longUrls }, (_, i) => `/long/${i}/${'a'.repeat(1_800)}`),
      ]
        .map((p) => `<url><loc>${origin}${p}</loc></url>`)
        .join('')}</urlset>`;
      return void response.writeHead(200, { 'Content-Type': 'application/xml' }).end(sitemap);
    }
    if (path === '/')
      return void html(
        page(
          'Hostile home',
          `<p>The home page of a hostile site.</p>${[...ordinaryPaths.slice(1), ...hostilePaths].map((p) => `<p><a href="${p}">${p}</a></p>`).join('')}`,
        ),
      );
    if (path.startsWith('/ordinary/'))
      return void html(
        page(`Ordinary ${path.slice(10)}`, `<p>An ordinary page, number ${path.slice(10)}, with words to read.</p>`),
      );
    if (path === '/unclosed') return void html(unclosed);
    if (path === '/nested') return void html(nested);
    if (path === '/spin') return void html(HOSTILE_SHAPES.spinning());
    if (path === '/scripted') return void html(HOSTILE_SHAPES.scripted());
    if (path === '/huge-base') return void html((hugeBase ??= HOSTILE_SHAPES.hugeBase(origin)));
    if (path.startsWith('/long/')) return void html(page('Long address', '<p>A page at a long address.</p>'));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    hits,
    hostilePaths,
    ordinaryPaths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
