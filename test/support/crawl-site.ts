import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** One request the site answered: when (ms), what path and its user agent. */
export interface SiteHit {
  at: number;
  path: string;
  agent: string;
}

export interface CrawlSite {
  origin: string;
  port: number;
  hits: SiteHit[];
  /** Replace (or add) a page's HTML. */
  setPage(path: string, html: string): void;
  /** A page answers 503 from now on (or again 200 with `false`). */
  setDown(path: string, down: boolean): void;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
const link = (href: string, text: string) => `<p><a href="${href}">${text}</a></p>`;

/** A minimal valid PDF: the crawl only needs a document link that answers with a PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * A site on loopback for map and crawl: a robots.txt that disallows /private/ and asks a 0.3 s
 * Crawl-delay and names a sitemap index (one child gzip-packed), a PDF, a redirect (/old -> /new),
 * a page three links deep (/docs/a/b) and one four deep (/docs/a/b/c), a page only the sitemap
 * names, and links to the disallowed folder and off the site. Every request is logged with its time.
 */
export async function startCrawlSite(options: { crawlDelay?: number } = {}): Promise<CrawlSite> {
  const hits: SiteHit[] = [];
  const down = new Set<string>();
  let origin = '';
  const pages = new Map<string, string>([
    [
      '/',
      page(
        'Home',
        `<p>Welcome to the fixture company.</p>${link('/about', 'About us')}${link('/docs/', 'Documentation')}${link('/private/hidden', 'Hidden')}${link('/old', 'Old page')}${link('/docs/guide.pdf', 'Guide (PDF)')}${link('http://192.0.2.1/elsewhere', 'Elsewhere')}`,
      ),
    ],
    [
      '/about',
      page(
        'About us',
        `<p>We build fixture widgets since 2001.</p>${link('/team', 'Our team')}${link('/new', 'New page')}`,
      ),
    ],
    ['/team', page('Our team', '<p>Ada, Grace and Linus run the fixture company.</p>')],
    ['/new', page('New page', '<p>This page replaced the old one.</p>')],
    ['/docs/', page('Documentation', `<p>Start here to learn the widgets.</p>${link('/docs/a', 'Chapter A')}`)],
    ['/docs/a', page('Chapter A', `<p>Chapter A explains assembly.</p>${link('/docs/a/b', 'Section B')}`)],
    ['/docs/a/b', page('Section B', `<p>Section B is three links deep.</p>${link('/docs/a/b/c', 'Part C')}`)],
    ['/docs/a/b/c', page('Part C', '<p>Part C is four links deep.</p>')],
    ['/blog/only-in-sitemap', page('Sitemap only', '<p>Only the sitemap names this page.</p>')],
    ['/private/hidden', page('Hidden', '<p>Robots may not read this.</p>')],
    ['/private/secret', page('Secret', '<p>Robots may not read this either.</p>')],
  ]);
  const urlset = (paths: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc><lastmod>2026-01-0${(p.length % 9) + 1}</lastmod></url>`).join('')}</urlset>`;

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push({ at: Date.now(), path, agent: String(req.headers['user-agent'] ?? '') });
    if (down.has(path)) return res.writeHead(503).end('down');
    if (path === '/robots.txt') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return res.end(
        `User-agent: *\nDisallow: /private/\nCrawl-delay: ${options.crawlDelay ?? 0.3}\n\nSitemap: ${origin}/sitemap_index.xml\n`,
      );
    }
    if (path === '/sitemap_index.xml') {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      return res.end(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-pages.xml.gz</loc></sitemap><sitemap><loc>${origin}/sitemap-more.xml</loc></sitemap></sitemapindex>`,
      );
    }
    if (path === '/sitemap-pages.xml.gz') {
      res.writeHead(200, { 'Content-Type': 'application/gzip' });
      return res.end(gzipSync(urlset(['/', '/about', '/private/secret', '/old'])));
    }
    if (path === '/sitemap-more.xml') {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      return res.end(urlset(['/blog/only-in-sitemap', '/docs/guide.pdf']));
    }
    if (path === '/old') return res.writeHead(301, { Location: '/new' }).end();
    if (path === '/docs/guide.pdf') {
      res.writeHead(200, { 'Content-Type': 'application/pdf' });
      return res.end(PDF);
    }
    const html = pages.get(path);
    if (html === undefined) return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    hits,
    setPage: (path, html) => void pages.set(path, html),
    setDown: (path, isDown) => void (isDown ? down.add(path) : down.delete(path)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
