/**
 * extractDocument on other content types (plain text, markdown, HTML under a generic type) and on
 * bad input (pathological markdown, pages nested too deep to walk).
 */
import { extractDocument } from './extract-document';

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
