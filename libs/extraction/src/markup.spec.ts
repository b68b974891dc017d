import fc from 'fast-check';
import { HTMLElement, parse } from 'node-html-parser';
import { extractDocument } from './extract-document';
import { hasRunnableScript, looksLikeHtml, stripComments, stripTags, tagPastLimit } from './markup';

describe('looksLikeHtml', () => {
  // The pattern it replaces, which backtracked exponentially on runs of `<!---->`.
  const OLD =
    /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype|html|head|body|div|p|meta|title|article|section|table|span|h[1-6])\b/i;

  it.each([
    ['<!doctype html><html>', true],
    ['  \n<!-- a --> <!-- b --><HTML lang="en">', true],
    ['<div class="x">', true],
    ['<p>', true],
    ['<h3>x', true],
    ['<pre>code</pre>', false],
    ['<!-- never closed <html>', false],
    ['plain text <html>', false],
    ['<!---->'.repeat(40), false],
    ['<!----><!---->x', false],
    ['', false],
  ])('%j -> %s', (text, expected) => {
    expect(looksLikeHtml(text)).toBe(expected);
  });

  // At most one comment: the old pattern let a comment end at any later `-->` (backtracking into
  // a second comment or a stray `-->`), where a browser ends it at the first.
  it('agrees with the pattern it replaces on documents with at most one comment', () => {
    const space = fc.array(fc.constantFrom(' ', '\n', '\t'), { maxLength: 3 }).map((a) => a.join(''));
    const comment = fc.constantFrom('', '<!-- c -->', '<!---->', '<!--', '<!-- <html> -->');
    const rest = fc.array(
      fc.constantFrom(
        ' ',
        'x',
        '<html>',
        '<div>',
        '<p>',
        '<pre>',
        '<!doctype html>',
        'text',
        '<h2>',
        '<h7>',
        '<span ',
        '<br>',
        '<P>',
        '<divx>',
      ),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(space, comment, space, rest, (a, c, b, r) => {
        const text = a + c + b + r.join('');
        expect(looksLikeHtml(text)).toBe(OLD.test(text));
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('stripComments', () => {
  it('takes comments out, and a comment that never closes ends the page, as in a browser', () => {
    expect(stripComments('<p>a</p><!-- x --><p>b</p>')).toBe('<p>a</p><p>b</p>');
    expect(stripComments('<p>a</p><!-->b<!--->c')).toBe('<p>a</p>bc');
    expect(stripComments(`<p>first</p>${'<!--'.repeat(1_000)}`)).toBe('<p>first</p>');
  });

  it('leaves comment-like text inside raw-text elements alone; one that never closes ends the page', () => {
    const script = '<script>var s = "<!--"; if (a --> b) {}</script><p>after</p>';
    expect(stripComments(script)).toBe(script);
    expect(stripComments('<STYLE>/* <!-- */</style><!--x--><p>y</p>')).toBe('<STYLE>/* <!-- */</style><p>y</p>');
    expect(stripComments('<p>kept</p><script>never closed <!-- <p>hidden</p>')).toBe('<p>kept</p>');
  });

  it('is the identity on markup without comments or raw-text elements', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('<p>', '</p>', 'word', ' ', '<a href="x">', '</a>', '<', '>', '-', '!'), {
          maxLength: 20,
        }),
        (parts) => {
          const html = parts.join('');
          fc.pre(!html.includes('<!--'));
          expect(stripComments(html)).toBe(html);
        },
      ),
    );
  });
});

describe('stripTags', () => {
  it('keeps the words, drops tags, comments, scripts and styles; a tag that never closes drops the rest', () => {
    expect(
      stripTags('<p>one</p><!-- two --><script>three()</script><style>p{}</style><b>four</b>')
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe('one four');
    expect(stripTags('<p>kept</p><a href="x').trim()).toBe('kept');
    expect(stripTags(`<p>kept</p>${'<'.repeat(10_000)}`).trim()).toBe('kept');
  });
});

describe('extractDocument on pages made to hurt a parser', () => {
  it('keeps the first paragraph before 200,000 unclosed comments, and the word inside 60,000 nested divs', () => {
    expect(
      extractDocument(`<html><body><p>The first paragraph is here.</p>${'<!--'.repeat(200_000)}`, {
        url: 'http://x.test/',
      }).text,
    ).toBe('The first paragraph is here.');
    expect(
      extractDocument(`${'<div>'.repeat(60_000)}nestedword${'</div>'.repeat(60_000)}`, { url: 'http://x.test/' }).text,
    ).toBe('nestedword');
  });

  it('reads 40 empty comments as text when served as text/plain or octet-stream', () => {
    for (const contentType of ['text/plain', 'application/octet-stream']) {
      expect(extractDocument('<!---->'.repeat(40), { url: 'http://x.test/', contentType }).text).toBe(
        '<!---->'.repeat(40),
      );
    }
  });

  it('gives a thin page the relaxed pass on the same tree, restored (one parse): class-named blocks come back', () => {
    // The strict pass drops the "share"-classed block as furniture; the relaxed pass keeps it.
    const html =
      '<html><body><div class="share-story"><p>Only text on the page, in a block with a furniture class name.</p></div></body></html>';
    expect(extractDocument(html, { url: 'http://x.test/' }).text).toContain('Only text on the page');
  });
});

describe('hasRunnableScript', () => {
  it('counts scripts a browser runs, not data blocks', () => {
    expect(hasRunnableScript('<div id="app"></div><script src="/app.js"></script>')).toBe(true);
    expect(hasRunnableScript('<script type="module">import "./x.js"</script>')).toBe(true);
    expect(hasRunnableScript("<SCRIPT type='text/javascript'>go()</SCRIPT>")).toBe(true);
    expect(hasRunnableScript('<script type="application/ld+json">{}</script><p>text</p>')).toBe(false);
    expect(hasRunnableScript('<scripts>not a tag</scripts><noscript>x</noscript>')).toBe(false);
    expect(hasRunnableScript('<p>no scripts at all</p>')).toBe(false);
  });

  it('takes time in proportion to the page on a run of unclosed tags', () => {
    const started = performance.now();
    expect(hasRunnableScript('<script type="x"'.repeat(200_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('tagPastLimit', () => {
  it('finds where the tag past the limit opens, counting every < a letter follows', () => {
    const html = '<p>a < b</p><br/><!-- x --><a href=x>';
    // Start tags: <p, <br, <a (closing tags, comments and a lone < do not count).
    expect(tagPastLimit(html, 3)).toBe(-1);
    expect(tagPastLimit(html, 2)).toBe(html.indexOf('<a'));
    expect(tagPastLimit(html, 0)).toBe(0);
    expect(tagPastLimit('', 0)).toBe(-1);
  });

  it('never counts fewer tags than the parser makes elements', () => {
    const elementsOf = (html: string) => {
      let count = 0;
      const stack = [...parse(html, { comment: false, parseNoneClosedTags: true }).childNodes];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (node instanceof HTMLElement) {
          count++;
          stack.push(...node.childNodes);
        }
      }
      return count;
    };
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('<p>', '<div>', '</div>', 'x', '<', '<a b ', '<br/>', '<td>', '>', '<x-y z="<q>">', '<B>'),
          { maxLength: 40 },
        ),
        (parts) => {
          const html = stripComments(parts.join(''));
          const elements = elementsOf(html);
          // At least as many tags are counted as the parser makes elements.
          if (elements > 0) expect(tagPastLimit(html, elements - 1)).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});
