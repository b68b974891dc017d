import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Extraction threads with a deadline, on the compiled worker script (dist/, which `npm test`
 * builds first: from jest's TypeScript sources there is no worker script to start).
 */
const DIST = path.resolve(__dirname, '..', '..', '..', 'dist', 'libs', 'extraction', 'src', 'index.js');
const { ExtractionAbandoned, ExtractionWorkers } = require(DIST) as typeof import('../../../libs/extraction/src');

jest.setTimeout(300_000);

describe('ExtractionWorkers (compiled)', () => {
  it('gives up a page past its deadline or its heap limit as ExtractionAbandoned, and the next page is read on a fresh thread', async () => {
    const big = `<html><body>${'<h2>title</h2><p>a, b, c.</p>'.repeat(150_000)}</body></html>`;
    const hurried = new ExtractionWorkers({ timeoutMs: 50, size: 1 });
    const cramped = new ExtractionWorkers({ timeoutMs: 60_000, size: 1, maxHeapMb: 64 });
    try {
      expect(hurried.threaded).toBe(true);
      await expect(hurried.extract(big, { url: 'http://site.test/' })).rejects.toThrow(
        new ExtractionAbandoned('the page took longer than 0.05 s to extract'),
      );
      expect((await hurried.extract('<p>still reading</p>', { url: 'http://site.test/' })).text).toBe('still reading');
      // Its 300,000 tags are past what a tree may have in 64 MB (12,800): it is read as words...
      const words = await cramped.extract(big, { url: 'http://site.test/' });
      expect(words.text.startsWith('title a, b, c. title')).toBe(true);
      // ...and a tree of them, asked for regardless, outgrows the heap: given up, the thread replaced.
      await expect(cramped.extract(big, { url: 'http://site.test/', heapMb: 5_000 })).rejects.toThrow(
        new ExtractionAbandoned('the page needs more than 64 MB to extract'),
      );
      expect((await cramped.extract('<p>still reading</p>', { url: 'http://site.test/' })).text).toBe('still reading');
    } finally {
      await Promise.all([hurried.close(), cramped.close()]);
    }
  });

  it('reads a page of 300,000 tags as its words in a 32 MB thread: a few times its size, not twenty', async () => {
    // 4.5 MB of markup. Its words were once held as a piece per tag and per run of spaces (V8
    // builds a global replace's result as a tree of pieces): the page needed 64 MB.
    const big = `<html><head><title>Many tags</title></head><body>${'<h2>title</h2><p>a, b, c.</p>'.repeat(150_000)}</body></html>`;
    const small = new ExtractionWorkers({ timeoutMs: 60_000, size: 1, maxHeapMb: 32 });
    try {
      for (let i = 0; i < 3; i++) {
        const words = await small.extract(big, { url: 'http://site.test/' });
        expect(words.title).toBe('Many tags');
        expect(words.text).toBe(`Many tags ${'title a, b, c. '.repeat(150_000).trim()}`);
      }
    } finally {
      await small.close();
    }
  });

  it('a worker script that cannot start is not started again and again: pages are then extracted inline', async () => {
    const broken = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wr-broken-worker-')), 'worker.js');
    fs.writeFileSync(broken, "throw new Error('this build is broken');\n");
    const workers = new ExtractionWorkers({ timeoutMs: 1_000, size: 2, script: broken });
    try {
      expect((await workers.extract('<p>read anyway</p>', { url: 'http://site.test/' })).text).toBe('read anyway');
      expect(workers.threaded).toBe(false);
    } finally {
      await workers.close();
    }
  });

  it('queues pages beyond its threads and answers each, in any order of completion', async () => {
    const workers = new ExtractionWorkers({ timeoutMs: 10_000, size: 2 });
    try {
      const texts = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          workers.extract(`<p>page number ${i}</p>`, { url: `http://site.test/${i}` }).then((d) => d.text),
        ),
      );
      expect(texts).toEqual(Array.from({ length: 12 }, (_, i) => `page number ${i}`));
    } finally {
      await workers.close();
    }
    await expect(workers.extract('<p>x</p>', { url: 'http://site.test/' })).rejects.toThrow('closed');
  });
});
