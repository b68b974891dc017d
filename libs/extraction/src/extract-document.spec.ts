import { extractDocument } from './extract-document';
import { newsPage, URL_ } from './testing/news-page';

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

describe('extractDocument: a page with more tags than a tree may have', () => {
  const page = (items: number) =>
    `<html><head><title>A long list</title></head><body><nav><a href="/">Home</a></nav>` +
    `<main><p>The list below names every item we hold, one line each.</p><ul>${'<li>an item</li>'.repeat(items)}</ul></main></body></html>`;

  it('reads the page as its words, with its title, past the tags its heap allows', () => {
    const html = page(100);
    const tree = extractDocument(html, { url: 'https://x.test/list' });
    const words = extractDocument(html, { url: 'https://x.test/list', heapMb: 0.25 });
    // The tree drops the navigation; the words keep all the page's text.
    expect(tree.text).not.toContain('Home');
    expect(words.text).toContain('Home');
    expect(words.text).toContain('The list below names every item we hold');
    expect(words.text.match(/an item/g)).toHaveLength(100);
    expect(words.title).toBe('A long list');
    expect(words.html).toContain('The list below');
  });

  it('parses a page at the bound into a tree (200 tags a MB of heap)', () => {
    // html, head, title, body, nav, a, main, p, ul and 40 items: 49 start tags.
    const doc = extractDocument(page(40), { url: 'https://x.test/list', heapMb: 0.245 });
    expect(doc.text).not.toContain('Home');
    expect(doc.text).toContain('The list below');
    expect(extractDocument(page(40), { url: 'https://x.test/list', heapMb: 0.24 }).text).toContain('Home');
  });
});
