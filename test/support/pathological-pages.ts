import { decodeBombPdf } from './documents';

/**
 * Pages built to hurt an HTML extractor: each is a shape that made a parser or a pattern go
 * quadratic or exponential, or that nests deeper than a recursive walk's stack; and documents
 * built to hurt a document reader (a PDF whose streams decode to gigabytes). `word` is text a
 * reader sees in it (empty when the page has none), so a test can check the page's words came
 * through.
 */
export interface PathologicalPage {
  name: string;
  contentType: string;
  body: string | Buffer;
  /** Text the extraction keeps, when the page has readable text. */
  word: string | null;
  /**
   * The page must be read (its word kept). Otherwise it may instead be given up at the
   * extraction deadline: a huge page of ordinary markup can honestly take longer.
   */
  mustRead?: true;
  /** The page must be answered with this error (a document refused for what it holds). */
  error?: RegExp;
}

const times = (s: string, n: number) => s.repeat(n);

export function pathologicalPages(): PathologicalPage[] {
  const first = '<html><body><p>The first paragraph is here.</p>';
  return [
    { name: 'comment run as text/plain', contentType: 'text/plain', body: times('<!---->', 40), word: null },
    {
      name: 'comment run as application/octet-stream',
      contentType: 'application/octet-stream',
      body: times('<!---->', 40),
      word: null,
    },
    // Text documents: a long run of blanks before a word (a trailing-blank pattern tried from every
    // blank is quadratic: read in time only when it is not), and lines of quote or rule marks (a
    // repeated group in a pattern overflowed the stack: read or given up, never an error).
    {
      name: 'a million spaces before a word as text/plain',
      contentType: 'text/plain',
      body: `first words ${times(' ', 1_000_000)}lastword`,
      word: 'first words',
      mustRead: true,
    },
    {
      name: '5 MB line of > as text/markdown',
      contentType: 'text/markdown',
      body: `# Notes\n\n${times('>', 5_000_000)}\n\nafter the marks`,
      word: 'Notes',
    },
    {
      name: '5 MB line of * as text/markdown',
      contentType: 'text/markdown',
      body: `# Notes\n\n${times('*', 5_000_000)}\n\nafter the marks`,
      word: 'Notes',
    },
    {
      name: 'comment run as text/html',
      contentType: 'text/html',
      body: `${times('<!---->', 40_000)}<p>after the comments</p>`,
      word: 'after the comments',
      mustRead: true,
    },
    {
      name: '60,000 nested divs around a word',
      contentType: 'text/html',
      body: `${times('<div>', 60_000)}nestedword${times('</div>', 60_000)}`,
      word: 'nestedword',
      mustRead: true,
    },
    {
      name: '60,000 unclosed nested divs',
      contentType: 'text/html',
      body: `<p>opening words</p>${times('<div>', 60_000)}deepword`,
      word: 'opening words',
      mustRead: true,
    },
    {
      name: '200,000 unclosed comments after a first paragraph',
      contentType: 'text/html',
      body: first + times('<!--', 200_000),
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: 'a tag with 200,000 attributes',
      contentType: 'text/html',
      body: `${first}<div ${Array.from({ length: 200_000 }, (_, i) => `a${i}="v"`).join(' ')}>inside</div></body></html>`,
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: 'one attribute of 2 MB',
      contentType: 'text/html',
      body: `${first}<div title="${times('x', 2_000_000)}">inside</div>`,
      word: 'The first paragraph is here.',
    },
    {
      name: 'an attribute quote that never closes',
      contentType: 'text/html',
      body: `${first}<a href="${times('<b x=', 100_000)}`,
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: '100,000 tag openings without a >',
      contentType: 'text/html',
      body: first + times('<a b ', 100_000),
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: '100,000 <meta with no >',
      contentType: 'text/html',
      body: `<html><head>${times('<meta ', 100_000)}`,
      word: null,
    },
    {
      name: '50,000 unclosed <script',
      contentType: 'text/html',
      body: first + times('<script>', 50_000),
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: 'a 4 MB line of words',
      contentType: 'text/html',
      body: `<html><body><p>${times('word ', 800_000)}</p></body></html>`,
      word: 'word word',
    },
    {
      name: '200,000 < characters',
      contentType: 'text/html',
      body: first + times('<', 200_000),
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: '100,000 table cells unclosed',
      contentType: 'text/html',
      body: `${first}<table>${times('<tr><td>c', 100_000)}`,
      word: 'The first paragraph is here.',
    },
    {
      name: '100,000 nested lists',
      contentType: 'text/html',
      body: `${first}${times('<ul><li>', 50_000)}`,
      word: 'The first paragraph is here.',
    },
    // Ordinary markup in bulk: a tree of it would outgrow a thread's heap (1.8 KB a tag), where V8
    // can fail the whole process rather than the thread. Past the tag bound a page is read as words.
    {
      name: '160,000 list items of links (5 MB)',
      contentType: 'text/html',
      body: `${first}<ul>${times('<li><a href="/x">item</a></li>', 160_000)}</ul>`,
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: '1,600,000 <p> tags (5 MB)',
      contentType: 'text/html',
      body: first + times('<p>', 1_600_000),
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: 'entities 1 MB',
      contentType: 'text/html',
      body: `${first}<p>${times('&amp;&#x41;&#65;&nbsp;&bogus;', 40_000)}</p>`,
      word: 'The first paragraph is here.',
    },
    {
      name: 'invalid UTF-8 bytes',
      contentType: 'text/html; charset=utf-8',
      body: Buffer.concat([
        Buffer.from(first),
        Buffer.from(Array.from({ length: 200_000 }, (_, i) => 0x80 + (i % 64))),
        Buffer.from('<p>tail words</p>'),
      ]),
      word: 'The first paragraph is here.',
      mustRead: true,
    },
    {
      name: 'UTF-16 declared, odd bytes',
      contentType: 'text/html; charset=utf-16',
      body: Buffer.from(`${first}<p>x</p>!`),
      word: null,
    },
    {
      name: '50,000 headings',
      contentType: 'text/html',
      body: `<html><body>${times('<h2>title</h2><p>a, b, c.</p>', 50_000)}</body></html>`,
      word: 'title',
    },
    {
      name: 'JSON-LD of 1 MB nested arrays',
      contentType: 'text/html',
      body: `${first}<script type="application/ld+json">${times('[', 100_000)}${times(']', 100_000)}</script>`,
      word: 'The first paragraph is here.',
    },
    // PDF.js decodes a stream into buffers outside the thread's heap limit: refused as that URL's error.
    {
      name: 'a PDF decode bomb: 4 MB of FlateDecode inflating to 4 GB',
      contentType: 'application/pdf',
      body: decodeBombPdf(),
      word: null,
      error: /decodes to more than \d+ MB/,
    },
  ];
}
