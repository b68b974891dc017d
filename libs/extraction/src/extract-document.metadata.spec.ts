/**
 * extractDocument's metadata: published dates, JSON-LD types, titles, canonical URLs and
 * descriptions.
 */
import { extractDocument } from './extract-document';
import { newsPage, URL_ } from './testing/news-page';

describe('extractDocument: metadata', () => {
  const date = (head: string, body = '', url = 'https://x.example/article') =>
    extractDocument(
      `<html><head>${head}</head><body><article><h1>A headline for the test page</h1>${body}<p>${'Some article text, long enough to be the content of the page. '.repeat(4)}</p></article></body></html>`,
      { url },
    ).publishedDate;

  it.each([
    [
      'article:published_time',
      '<meta property="article:published_time" content="2024-03-15T23:30:00-05:00">',
      '',
      '2024-03-15',
    ],
    ['og:published_time', '<meta property="og:published_time" content="2023-07-01T10:00:00Z">', '', '2023-07-01'],
    ['citation_publication_date', '<meta name="citation_publication_date" content="2024/02/27">', '', '2024-02-27'],
    ['itemprop meta', '<meta itemprop="datePublished" content="2022-12-31">', '', '2022-12-31'],
    ['itemprop element', '', '<span itemprop="datePublished">March 5, 2024</span>', '2024-03-05'],
    [
      'JSON-LD datePublished',
      '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2021-06-09T08:00:00+02:00"}</script>',
      '',
      '2021-06-09',
    ],
    [
      'JSON-LD dateCreated',
      '<script type="application/ld+json">{"@type":"DiscussionForumPosting","dateCreated":"2020-01-02"}</script>',
      '',
      '2020-01-02',
    ],
    ['<time datetime>', '', '<time datetime="2019-11-20T12:00:00Z">20 November</time>', '2019-11-20'],
    ['<time> text only', '', '<time>15 March 2018</time>', '2018-03-15'],
  ])('reads the published date from %s', (_name, head, body, expected) => {
    expect(date(head, body)).toBe(expected);
  });

  it('falls back to a date in the URL, and gives null when there is none', () => {
    expect(date('', '', 'https://x.example/blog/2017/04/09/slug')).toBe('2017-04-09');
    expect(date('', '', 'https://x.example/news/2016-08-30-slug')).toBe('2016-08-30');
    expect(date('', '', 'https://x.example/about')).toBeNull();
    expect(
      date('<meta property="article:published_time" content="not a date">', '', 'https://x.example/about'),
    ).toBeNull();
  });

  it("prefers the article's own date over a review's or a comment's in JSON-LD", () => {
    const ld =
      '<script type="application/ld+json">{"@type":"Product","review":[{"@type":"Review","datePublished":"2024-01-08"}],"releaseDate":"x"}</script><script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2023-05-01"}</script>';
    expect(date(ld)).toBe('2023-05-01');
  });

  it('collects JSON-LD @type values through @graph, arrays and nested objects; ignores invalid blocks', () => {
    const head = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Article","author":{"@type":"Person","name":"Ann Lee"}},{"@type":["WebPage","ItemPage"]},{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1}]}]}</script>
<script type="application/ld+json">[{"@type":"Organization","name":"Example"},{"@type":"http://schema.org/WebSite"}]</script>
<script type="application/ld+json">{ this is not json </script>
<script type="application/ld+json">{"@type":"NewsArticle","description":"a raw
newline inside a string"}</script>`;
    const doc = extractDocument(
      `<html><head>${head}</head><body><p>Body text that is long enough to count as the content of this page.</p></body></html>`,
      { url: 'https://x.example/' },
    );
    expect(doc.schemaTypes).toEqual([
      'Article',
      'Person',
      'WebPage',
      'ItemPage',
      'BreadcrumbList',
      'ListItem',
      'Organization',
      'WebSite',
      'NewsArticle',
    ]);
    expect(doc.author).toBe('Ann Lee');
  });

  it.each([
    ['meta author', '<meta name="author" content="Priya Raman">', '', 'Priya Raman'],
    [
      'JSON-LD author array',
      '<script type="application/ld+json">{"@type":"Article","author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Person","name":"Bo Chen"}]}</script>',
      '',
      'Ann Lee, Bo Chen',
    ],
    ['rel=author', '', '<p class="meta">Posted by <a rel="author" href="/u/tom">Tomasz</a></p>', 'Tomasz'],
    ['byline class', '', '<div class="c-byline">By Maria Lopez | 3 March 2024</div>', 'Maria Lopez'],
    [
      'itemprop=author with a hidden name',
      '',
      '<div itemprop="author" itemscope><a href="/u/1">marek</a><span class="d-none" itemprop="name">marek</span><span class="rep">1,204</span></div>',
      'marek',
    ],
    [
      'a byline, not the review list before it',
      '',
      '<div class="reviews"><span class="review-byline">Elena M. on Jan 08, 2024</span></div><div class="byline">By Sam Okonkwo</div>',
      'Sam Okonkwo',
    ],
    [
      'citation_author',
      '<meta name="citation_author" content="Okafor, Chidinma"><meta name="citation_author" content="Lindgren, Erik">',
      '',
      'Okafor, Chidinma, Lindgren, Erik',
    ],
  ])('reads the author from %s', (_name, head, body, expected) => {
    const doc = extractDocument(
      `<html><head>${head}</head><body><article>${body}<p>${'Text of the article that makes it the main content. '.repeat(5)}</p></article></body></html>`,
      { url: 'https://x.example/a' },
    );
    expect(doc.author).toBe(expected);
  });

  it('cleans titles: og:title, "Headline | Site" in <title>, else the first h1', () => {
    const title = (head: string, body = '') =>
      extractDocument(
        `<html><head>${head}</head><body>${body}<p>Body text of the page, long enough to be content.</p></body></html>`,
        { url: 'https://x.example/' },
      ).title;
    expect(title('<meta property="og:title" content="Council approves bike lanes"><title>Other | Site</title>')).toBe(
      'Council approves bike lanes',
    );
    expect(
      title(
        '<meta property="og:title" content="Retries and backoff | Tidewater"><meta property="og:site_name" content="Tidewater">',
      ),
    ).toBe('Retries and backoff');
    expect(title('<title>How we cut build times in half | Example Engineering</title>')).toBe(
      'How we cut build times in half',
    );
    expect(title('<title>Install - Docs</title>', '<h1>Install</h1>')).toBe('Install');
    expect(title('<title>Q3: results and outlook</title>')).toBe('Q3: results and outlook');
    expect(title('', '<h1>Only a heading</h1>')).toBe('Only a heading');
    // A forum's board name in the site header is not the page's headline.
    expect(
      title(
        '<title>Outboard will not idle after storage - Small Boat Forum</title>',
        '<div class="headerbar" role="banner"><h1>Small Boat Forum</h1></div>',
      ),
    ).toBe('Outboard will not idle after storage');
    expect(
      title('<title>About us | Lanternfish</title><meta property="og:title" content="About us | Lanternfish">'),
    ).toBe('About us');
  });

  it('resolves the canonical URL against the page URL, else uses og:url', () => {
    const canon = (head: string) =>
      extractDocument(`<html><head>${head}</head><body><p>Text.</p></body></html>`, {
        url: 'https://x.example/a/b?utm=1',
      }).canonicalUrl;
    expect(canon('<link rel="canonical" href="/a/b">')).toBe('https://x.example/a/b');
    expect(canon('<link rel="canonical" href="https://other.example/c">')).toBe('https://other.example/c');
    expect(canon('<meta property="og:url" content="https://x.example/og">')).toBe('https://x.example/og');
    expect(canon('')).toBeNull();
  });

  it('takes the description from meta tags, else the first real paragraph', () => {
    expect(
      extractDocument(newsPage({ head: '<meta name="description" content="The bridge is open again.">' }), {
        url: URL_,
      }).description,
    ).toBe('The bridge is open again.');
    expect(extractDocument(newsPage(), { url: URL_ }).description).toMatch(
      /^The Harbour Bridge reopened to traffic on Friday morning/,
    );
  });
});
