import { parseSitemap } from './sitemap';

describe('parseSitemap', () => {
  it('reads a URL set: loc and lastmod, entities decoded, CDATA unwrapped', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>https://x.test/a?b=1&amp;c=2</loc><lastmod>2026-01-02</lastmod></url>
      <url>
        <loc><![CDATA[https://x.test/b]]></loc>
      </url>
      <url><lastmod>2026-01-03</lastmod></url>
    </urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      entries: [
        { loc: 'https://x.test/a?b=1&c=2', lastmod: '2026-01-02' },
        { loc: 'https://x.test/b', lastmod: null },
      ],
    });
  });

  it('reads an index: its child sitemaps', () => {
    const xml =
      '<sitemapindex><sitemap><loc>https://x.test/s1.xml.gz</loc></sitemap><sitemap ><loc>https://x.test/s2.xml</loc></sitemap></sitemapindex>';
    expect(parseSitemap(xml)).toEqual({
      kind: 'index',
      entries: [
        { loc: 'https://x.test/s1.xml.gz', lastmod: null },
        { loc: 'https://x.test/s2.xml', lastmod: null },
      ],
    });
  });

  it('stops at maxEntries', () => {
    const xml = `<urlset>${Array.from({ length: 50 }, (_, i) => `<url><loc>https://x.test/${i}</loc></url>`).join('')}</urlset>`;
    expect(parseSitemap(xml, 10).entries).toHaveLength(10);
  });

  it('is linear on hostile input: 5 MB of unclosed entries is read at once', () => {
    const hostile = `<urlset>${'<url><loc>'.repeat(500_000)}`;
    const started = performance.now();
    expect(parseSitemap(hostile).entries).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
