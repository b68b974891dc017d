import { extractDocument } from './extract-document';

const URL_ = 'https://news.example.com/local/2024/03/15/harbour-bridge-reopens';

/** A page as news CMSs emit it: the article between a header, a cookie banner, a sidebar, ads and a footer. */
function newsPage(opts: { head?: string; article?: string; htmlAttrs?: string } = {}): string {
  return `<!DOCTYPE html>
<html ${opts.htmlAttrs ?? 'lang="en-GB"'}>
<head>
<meta charset="utf-8">
<title>Harbour bridge reopens after two-year repair | The Example Gazette</title>
<meta property="og:site_name" content="The Example Gazette">
${opts.head ?? ''}
<style>.ad{min-height:250px}</style>
<script>window.dataLayer=[{"page":"article"}];</script>
</head>
<body class="single-post">
<a class="skip-link screen-reader-text" href="#main">Skip to content</a>
<header class="site-header"><a href="/" class="logo">The Example Gazette</a>
<nav class="main-nav"><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/business">Business</a></li><li><a href="/opinion">Opinion</a></li></ul></nav></header>
<div id="cookie-consent" class="cookie-banner"><p>We use cookies to personalise content and ads. By clicking accept you agree to our use of cookies.</p><button>Accept all</button></div>
<div class="page-wrap has-sidebar">
<main id="main">
<article class="post">
<h1 class="entry-title">Harbour bridge reopens after two-year repair</h1>
<div class="entry-meta byline">By <a rel="author" href="/staff/jane">Jane Doe</a> · <time datetime="2024-03-15T08:00:00+01:00">15 March 2024</time></div>
<div class="share-buttons"><a href="https://facebook.com/sharer">Share on Facebook</a> <a href="https://twitter.com/intent">Share on Twitter</a></div>
<div class="entry-content">
${
  opts.article ??
  `<p>The Harbour Bridge reopened to traffic on Friday morning, two years after engineers closed it because of corroded steel cables, and nine months later than first promised.</p>
<p>About 40,000 vehicles a day used the bridge before the closure, and the diversion through the city centre added up to forty minutes to some journeys, according to the council.</p>
<div class="ad-slot" id="div-gpt-ad-1"><span class="ad-label">Advertisement</span></div>
<p>"It has been a long wait, and I want to thank residents for their patience," said the council leader, Ahmed Khan, who cut the ribbon with two of the engineers.</p>
<p>The repair cost £38 million, well above the original estimate of £24 million, after inspections found more damage inside the deck than expected.</p>`
}
</div>
<div class="related-posts"><h3>Related stories</h3><ul><li><a href="/local/ferry-fares">Ferry fares to rise in April</a></li><li><a href="/local/roadworks">Roadworks planned for the ring road</a></li></ul></div>
<div id="comments" class="comments-area"><h3>Leave a comment</h3><form id="commentform"><textarea name="comment"></textarea><input type="submit" value="Post Comment"></form></div>
</article>
</main>
<aside class="sidebar"><section class="widget most-read"><h3>Most read</h3><ol><li><a href="/a">Schools to close early for the holidays, council confirms</a></li><li><a href="/b">New cycle lanes planned for the seafront promenade</a></li></ol></section>
<section class="widget newsletter"><h3>Newsletter</h3><p>Get the morning briefing delivered to your inbox every weekday, free of charge.</p></section></aside>
</div>
<footer class="site-footer"><p>© 2024 Example Gazette Media Ltd. All rights reserved. Registered in England.</p><ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms</a></li></ul></footer>
</body>
</html>`;
}

describe('extractDocument: main content', () => {
  it('keeps the article and drops navigation, cookie banner, ads, share widget, related links, comments, sidebar and footer', () => {
    const doc = extractDocument(newsPage(), { url: URL_ });
    for (const kept of [
      'two years after engineers closed it',
      '40,000 vehicles a day',
      'thank residents for their patience',
      '£38 million',
    ]) {
      expect(doc.text).toContain(kept);
      expect(doc.markdown).toContain(kept);
    }
    for (const dropped of [
      'Skip to content',
      'Sport',
      'We use cookies',
      'Accept all',
      'Advertisement',
      'Share on Facebook',
      'Related stories',
      'Ferry fares',
      'Leave a comment',
      'Post Comment',
      'Most read',
      'morning briefing',
      'All rights reserved',
      'Privacy policy',
      'Jane Doe',
    ]) {
      expect(doc.text).not.toContain(dropped);
      expect(doc.markdown).not.toContain(dropped);
      expect(doc.html).not.toContain(dropped);
    }
    // The headline is the title, not repeated as the first line of the content.
    expect(doc.title).toBe('Harbour bridge reopens after two-year repair');
    expect(doc.text.startsWith('The Harbour Bridge reopened')).toBe(true);
    expect(
      doc.html
        .replace(/<[^>]+>/g, '')
        .trim()
        .startsWith('The Harbour Bridge reopened'),
    ).toBe(true);
    expect(doc.html).not.toMatch(/<script|<style|class=|id=/);
  });

  it('finds paragraphs written as <br>-separated text in a table layout (no semantic tags, no classes)', () => {
    const html = `<HTML><HEAD><TITLE>Restoring a Bush radio</TITLE></HEAD><BODY><TABLE WIDTH="100%"><TR>
<TD WIDTH="160"><FONT SIZE="2"><B>Menu</B><BR><A HREF="index.htm">Home</A><BR><A HREF="radios.htm">Radios</A><BR><A HREF="links.htm">Links</A><BR><A HREF="mailto:x@example.com">Email me</A></FONT></TD>
<TD><FONT SIZE="2"><B>Restoring a Bush radio</B><BR><BR>
The set came from a car boot sale for five pounds. It was filthy, the back was missing, and it had not been switched on for years.
<BR><BR>I replaced every paper capacitor with a modern polyester type, and the electrolytics inside the old can, to keep the original look.
<BR><BR>After alignment it pulled in a dozen stations on medium wave in the evening, with a warm sound from that little speaker.
</FONT></TD></TR></TABLE></BODY></HTML>`;
    const doc = extractDocument(html, { url: 'http://radios.example/bush.htm' });
    expect(doc.text).toContain('car boot sale for five pounds');
    expect(doc.text).toContain('modern polyester type');
    expect(doc.text).toContain('dozen stations on medium wave');
    expect(doc.text).not.toContain('Email me');
    expect(doc.text).not.toMatch(/\bRadios\b/);
    expect(doc.markdown.split('\n\n').length).toBeGreaterThanOrEqual(3); // the <br><br> runs stay paragraphs
  });

  it('uses <article> when the extra text it holds reads like content, and still picks the body out of a page-wide <article>', () => {
    const wrapped = `<html><body><article class="page"><div class="top"><a href="/">Boots and Bothies</a> | <a href="/routes/">Routes</a> | <a href="/gear/">Gear</a> | <a href="/about/">About</a></div>
<div class="cols"><div class="col-main"><h1>Two days on the plateau</h1><div class="copy">
<p>I had been waiting all summer for a settled spell of weather to cross the plateau, and it finally came in October, with light winds and the first snow.</p>
<p>The walk across to the summit is long rather than hard. In good visibility you simply follow the cairns, and I reached the top at two in the afternoon.</p>
<p>The descent to the loch was the only part of the day where I needed to concentrate, with old snow lying in the gullies below the ridge.</p></div></div>
<div class="col-side"><div class="box"><h4>Archive</h4><ul><li><a href="/2023/">2023</a></li><li><a href="/2022/">2022</a></li><li><a href="/2021/">2021</a></li></ul></div></div></div>
<div class="bottom"><p>All words and photos © the author. Please ask before reusing.</p></div></article></body></html>`;
    const doc = extractDocument(wrapped, { url: 'https://blog.example/plateau' });
    expect(doc.text).toContain('settled spell of weather');
    expect(doc.text).toContain('old snow lying in the gullies');
    expect(doc.text).not.toContain('Archive');
    expect(doc.text).not.toContain('Gear');
    expect(doc.text).not.toContain('Please ask before reusing');
  });

  it('drops hidden and screen-reader-only text but keeps an accordion question written as a button in a heading', () => {
    const html = `<html><body><main><h1>Help</h1>
<p>Answers to the questions our customers ask most often about installation and billing.</p>
<h3 class="accordion-header"><button class="accordion-button" type="button">How long does installation take?</button></h3>
<div class="accordion-body">Most installations take two to three hours, and up to a full day if new cable has to be laid.</div>
<p style="display: none">Secret promotional text that no reader ever sees on the page.</p>
<p hidden>Another hidden paragraph that is only used by scripts on the page.</p>
<span class="sr-only">Opens in a new window</span>
<p>Prices are fixed for the whole contract, and we write to you before it ends.</p>
</main></body></html>`;
    const doc = extractDocument(html, { url: 'https://isp.example/faq' });
    expect(doc.markdown).toContain('### How long does installation take?');
    expect(doc.text).toContain('two to three hours');
    expect(doc.text).not.toContain('Secret promotional');
    expect(doc.text).not.toContain('Another hidden');
    expect(doc.text).not.toContain('Opens in a new window');
  });
});

describe('extractDocument: markdown', () => {
  const article = `<p>Queues retry failed jobs. See <a href="../guides/observability">the observability guide</a> or <a href="https://other.example/x?a=1">an external page</a>, and <em>read</em> the <strong>warnings</strong>.</p>
<h2>Configuring a queue</h2>
<p>Pass <code>retry</code> when you create the queue; every job added inherits these settings unless it overrides them.</p>
<pre class="prism-code"><code class="language-ts">const q = new Queue('email', {
  retry: { attempts: 8 },
});</code></pre>
<ul>
<li>Fixed delay between attempts
<ul><li>Set with <code>delay</code></li><li>Capped by <code>max</code></li></ul>
</li>
<li>Exponential delay</li>
</ul>
<ol start="3"><li>Third step</li><li>Fourth step</li></ol>
<table><thead><tr><th>Attempt</th><th>Delay</th></tr></thead><tbody><tr><td>1</td><td>none</td></tr><tr><td>2</td><td>1 s | ±20%</td></tr></tbody></table>
<blockquote><p>Make handlers idempotent: retries re-run them completely.</p></blockquote>
<figure><img src="/img/diagram.png" alt="Retry timeline"><figcaption>How delays grow with each attempt.</figcaption></figure>
<p><img data-src="/img/lazy.png" src="data:image/gif;base64,R0lGOD" alt="Lazy"><img src="/pixel.gif" width="1" height="1" alt=""> Jobs that exhaust their attempts move to the dead-letter set, where they stay for fourteen days.</p>
<h3>Permanent errors<a class="hash-link" href="#permanent-errors">#</a></h3>
<p>Throw an unrecoverable error to fail a job at once, without using the remaining attempts, when retrying can never succeed.</p>`;
  const doc = extractDocument(newsPage({ article }), { url: 'https://docs.example.com/docs/queues/retries' });

  it('writes headings, emphasis, inline code and absolute links', () => {
    expect(doc.markdown).toContain('## Configuring a queue');
    expect(doc.markdown).toContain('### Permanent errors\n'); // the "#" permalink is not text
    expect(doc.markdown).toContain('[the observability guide](https://docs.example.com/docs/guides/observability)');
    expect(doc.markdown).toContain('[an external page](https://other.example/x?a=1)');
    expect(doc.markdown).toContain('*read* the **warnings**');
    expect(doc.markdown).toContain('Pass `retry` when');
  });

  it('writes fenced code with the language from class="language-x", whitespace intact', () => {
    expect(doc.markdown).toContain("```ts\nconst q = new Queue('email', {\n  retry: { attempts: 8 },\n});\n```");
  });

  it('writes nested and ordered lists', () => {
    expect(doc.markdown).toContain(
      '- Fixed delay between attempts\n  - Set with `delay`\n  - Capped by `max`\n- Exponential delay',
    );
    expect(doc.markdown).toContain('3. Third step\n4. Fourth step');
  });

  it('writes GFM pipe tables with escaped pipes, blockquotes, and images inside the content only', () => {
    expect(doc.markdown).toContain('| Attempt | Delay |\n| --- | --- |\n| 1 | none |\n| 2 | 1 s \\| ±20% |');
    expect(doc.markdown).toContain('> Make handlers idempotent: retries re-run them completely.');
    expect(doc.markdown).toContain('![Retry timeline](https://docs.example.com/img/diagram.png)');
    expect(doc.markdown).toContain('![Lazy](https://docs.example.com/img/lazy.png)');
    expect(doc.markdown).not.toContain('pixel.gif');
    expect(doc.markdown).not.toContain('logo');
  });

  it('gives plain text without markup, and HTML with only content tags and absolute URLs', () => {
    expect(doc.text).toContain('Configuring a queue\n\nPass retry when you create the queue');
    expect(doc.text).not.toMatch(/[#*`]|\]\(/);
    expect(doc.text).toContain('Attempt\tDelay');
    expect(doc.html).toContain(
      '<a href="https://docs.example.com/docs/guides/observability">the observability guide</a>',
    );
    expect(doc.html).toContain('<code class="language-ts">');
    expect(doc.html).toContain('<img src="https://docs.example.com/img/diagram.png" alt="Retry timeline">');
    expect(doc.html).toContain('<th>Attempt</th>');
  });

  it('resolves relative URLs against <base href> when the page sets one', () => {
    const d = extractDocument(
      '<html><head><base href="https://cdn.example.org/site/"></head><body><article><p>Read <a href="docs/intro.html">the introduction</a> first, then the rest of the guide, in order, from start to end.</p><img src="img/a.png" alt="A"></article></body></html>',
      {
        url: 'https://x.example/page',
      },
    );
    expect(d.markdown).toContain('[the introduction](https://cdn.example.org/site/docs/intro.html)');
    expect(d.markdown).toContain('![A](https://cdn.example.org/site/img/a.png)');
  });

  it('escapes text that markdown would read as syntax', () => {
    const d = extractDocument(
      '<html><body><article><p>Use snake_case names and 2 * 3 [brackets] in prose, as the style guide for this project asks.</p><p>1. Not a list item, but a sentence that starts with a number and a full stop.</p></article></body></html>',
      {
        url: 'https://x.example/',
      },
    );
    expect(d.markdown).toContain('snake\\_case names and 2 \\* 3 \\[brackets\\]');
    expect(d.markdown).toContain('1\\. Not a list item');
    expect(d.text).toContain('snake_case names and 2 * 3 [brackets]');
  });
});

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

describe('extractDocument: language', () => {
  const lang = (text: string, attrs = '', head = '') =>
    extractDocument(`<html ${attrs}><head>${head}</head><body><article><p>${text}</p></article></body></html>`, {
      url: 'https://x.example/',
    }).language;

  it('uses <html lang> and content-language, reduced to the primary subtag', () => {
    expect(lang('Some text.', 'lang="en-GB"')).toBe('en');
    expect(lang('Some text.', 'lang="pt_BR"')).toBe('pt');
    expect(lang('Some text.', '', '<meta http-equiv="Content-Language" content="nl-BE, fr">')).toBe('nl');
  });

  it.each([
    [
      'en',
      'The council said that the bridge would reopen in the spring, and that the work was on budget for the first time in years.',
    ],
    [
      'de',
      'Die Stadtbibliothek ist künftig an sieben Tagen in der Woche geöffnet, und der Zugang erfolgt mit dem Ausweis über ein Türsystem.',
    ],
    [
      'fr',
      "Il y a trois ans, j'ai vendu ma voiture et je me suis mise à aller au travail à vélo, neuf kilomètres entre la Croix-Rousse et le centre.",
    ],
    [
      'es',
      'Las bodegas comenzaron a recoger la uva a mediados de agosto, el inicio más temprano desde que hay registros en la región.',
    ],
    [
      'it',
      'Matera si può visitare in un giorno solo? Non del tutto, ma in una giornata ben organizzata si riesce a vedere il cuore della città.',
    ],
    [
      'pt',
      'A prefeitura anunciou nesta terça-feira um plano para dobrar a rede de ciclovias da cidade até o fim do ano que vem, com obras na zona norte.',
    ],
    [
      'nl',
      'Fietsdeel maakt deelfietsen in Nederlandse steden net zo makkelijk als je eigen fiets, en het platform moet met de groei van het bedrijf meegroeien.',
    ],
    [
      'ar',
      'اختتم معرض الكتاب الدولي مساء السبت دورته الخامسة والعشرين بعد عشرة أيام من الفعاليات بحضور تجاوز مليون زائر.',
    ],
  ])('detects %s from the text when the page does not say', (expected, text) => {
    expect(lang(text)).toBe(expected);
  });

  it('gives null for too little evidence, and trusts the page unless its text is overwhelmingly another language', () => {
    expect(lang('OK')).toBeNull();
    expect(
      lang(
        'Die Stadt hat die Bibliothek ausgebaut, und sie ist jetzt auch am Sonntag für alle geöffnet, die einen Ausweis haben. Die Kosten werden zu zwei Dritteln vom Land getragen, und die Stadt rechnet mit geringen Betriebskosten für das neue System.',
        'lang="en"',
      ),
    ).toBe('de');
    expect(
      lang(
        'Kindergarten and Zeitgeist are German loanwords that English speakers use in everyday conversation.',
        'lang="en"',
      ),
    ).toBe('en');
  });
});

describe('extractDocument: other content types and bad input', () => {
  it('passes text/plain through, with the first line as title', () => {
    const body =
      'Release notes 2.4\r\n\r\nThis release fixes the crash on start-up when the config file is empty.\r\n\r\n\r\n\r\nIt also adds <b>nothing</b> dangerous.';
    const doc = extractDocument(body, {
      url: 'https://x.example/notes/2024/01/31/notes.txt',
      contentType: 'text/plain; charset=utf-8',
    });
    expect(doc.title).toBe('Release notes 2.4');
    expect(doc.text).toBe(
      'Release notes 2.4\n\nThis release fixes the crash on start-up when the config file is empty.\n\nIt also adds <b>nothing</b> dangerous.',
    );
    expect(doc.html).toContain('<p>It also adds &lt;b&gt;nothing&lt;/b&gt; dangerous.</p>');
    expect(doc.publishedDate).toBe('2024-01-31');
    expect(doc.language).toBe('en');
    expect(doc.description).toBe('This release fixes the crash on start-up when the config file is empty.');
  });

  it('reads a markdown line of millions of quote or rule marks as text, not a stack overflow', () => {
    // A repeated group in a pattern backtracks a stack frame a repetition: five million ">" overflowed it.
    for (const mark of ['>', '*']) {
      const doc = extractDocument(`# Notes\n\n${mark.repeat(5_000_000)}\n\nLast line.`, {
        url: 'https://x.example/notes.md',
        contentType: 'text/markdown',
      });
      expect(doc.title).toBe('Notes');
      expect(doc.text).toContain('Last line.');
    }
    // Blanks before a word are no line's end: read in one pass, not tried from every blank.
    const spaced = extractDocument(`Start ${' '.repeat(1_000_000)}end   \r\nnext`, {
      url: 'https://x.example/a.txt',
      contentType: 'text/plain',
    });
    expect(spaced.text.endsWith('end\nnext')).toBe(true);
    // Nested quotes and rules still read as before.
    expect(
      extractDocument('> > quoted twice\n\n- - -\n\n* * *\n\nafter', {
        url: 'https://x.example/q.md',
        contentType: 'text/markdown',
      }).text,
    ).toBe('quoted twice\n\nafter');
  });

  it('passes text/markdown through: title from the first heading, text without the syntax, HTML rendered', () => {
    const md =
      '---\n\n# quay\n\nA tiny job queue for **SQLite**, see [the docs](https://quay.example/docs).\n\n## Install\n\n```sh\nnpm install quay\n```\n\n- one\n- two\n';
    const doc = extractDocument(md, { url: 'https://x.example/README.md', contentType: 'text/markdown' });
    expect(doc.title).toBe('quay');
    expect(doc.markdown).toBe(md.trim());
    expect(doc.text).toBe(
      'quay\n\nA tiny job queue for SQLite, see the docs.\n\nInstall\n\nnpm install quay\n\none\ntwo',
    );
    expect(doc.html).toContain('<h1>quay</h1>');
    expect(doc.html).toContain('<a href="https://quay.example/docs">the docs</a>');
    expect(doc.html).toContain('<pre><code class="language-sh">npm install quay</code></pre>');
    expect(doc.html).toContain('<ul><li>one</li><li>two</li></ul>');
  });

  it.each([
    ['empty', ''],
    ['whitespace', '  \n\t '],
    ['angle-bracket noise', '<<<>>><<//>></></<p<p>>'],
    ['unclosed tags', '<html><body><div><p>Unclosed paragraph <b>bold <i>italic <table><tr><td>cell'],
    ['binary junk', '\u0000\u0001\u00ff\ufffd<\u0000html>\u0007'],
    ['a script only', '<script>document.write("<p>hi</p>")</script>'],
    ['deep nesting', '<div>'.repeat(20_000) + 'deep text' + '</div>'.repeat(20_000)],
    [
      'broken JSON-LD and attributes',
      '<html><head><script type="application/ld+json">{"@graph":[{"@type":</script><meta property="article:published_time" content=""></head><body><a href="javascript:alert(1)">x</a><img src=""><p>Text</p></body></html>',
    ],
  ])('does not throw on %s', (_name, body) => {
    const doc = extractDocument(body, { url: 'not a url' });
    expect(typeof doc.text).toBe('string');
    expect(typeof doc.markdown).toBe('string');
    expect(typeof doc.html).toBe('string');
    expect(Array.isArray(doc.schemaTypes)).toBe(true);
  });

  it('keeps the words of a page too deeply nested to walk', () => {
    const doc = extractDocument('<div>'.repeat(20_000) + 'deep text survives' + '</div>'.repeat(20_000), {
      url: 'https://x.example/',
    });
    expect(doc.text).toContain('deep text survives');
  });

  it('reads HTML served with a generic content type, and plain text served without one', () => {
    expect(
      extractDocument(
        '<!doctype html><html><body><article><p>Served as octet-stream but clearly a web page with a paragraph.</p></article></body></html>',
        { url: 'https://x.example/', contentType: 'application/octet-stream' },
      ).text,
    ).toBe('Served as octet-stream but clearly a web page with a paragraph.');
    expect(
      extractDocument('just some words, no markup', {
        url: 'https://x.example/',
        contentType: 'application/octet-stream',
      }).text,
    ).toBe('just some words, no markup');
  });
});
