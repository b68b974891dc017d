import * as path from 'node:path';
import { spawn } from 'node:child_process';
import fc from 'fast-check';
import type { ProbeJob, ProbeResult } from '../../support/extraction-probe';
import { pathologicalPages } from '../../support/pathological-pages';

/**
 * Extraction threads with a deadline, on the compiled worker script (dist/, which `npm test`
 * builds first: from jest's TypeScript sources there is no worker script to start).
 */
const DIST = path.resolve(__dirname, '..', '..', '..', 'dist', 'libs', 'extraction', 'src', 'index.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ExtractionAbandoned, ExtractionWorkers } = require(DIST) as typeof import('../../../libs/extraction/src');

jest.setTimeout(300_000);

const PROBE = path.resolve(__dirname, '..', '..', '..', 'dist', 'test', 'support', 'extraction-probe.js');

/** Runs the probe process on a job; its results, one per page. */
function probe(job: ProbeJob): Promise<ProbeResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROBE], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as ProbeResult)) : reject(new Error(`probe exited with ${code}`))));
    child.stdin.end(JSON.stringify(job));
  });
}

const SIZE_CAP = 5 * 1024 * 1024;

/** Shapes that hurt parsers and patterns, repeated to any length. */
const FRAGMENTS = [
  '<!---->', '<!--', '-->', '<!-->', '<div>', '</div>', '<p>', 'word ', '<a b ', '<a href="', '"', "'", '<script>', '</script>', '<table><tr><td>',
  '<meta ', '<', '>', '&amp;', '&#x', '<h2>t</h2>', '<x y="z" ', '\u00e9', '\ufffd', '<![CDATA[', '<?xml ', '<svg><path d="', ' ', '\n',
];

describe('ExtractionWorkers (compiled)', () => {
  it('extracts every pathological page or gives it up, each within 2 s, while the event loop is never held 100 ms', async () => {
    // Bodies drawn at random up to the size cap, from the same hostile shapes, and the corpus,
    // handed to the threads by a process of its own (test/support/extraction-probe.ts).
    const random = fc.sample(
      fc.record({
        parts: fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 5 }),
        size: fc.integer({ min: 1, max: SIZE_CAP }),
        contentType: fc.constantFrom('text/html', 'text/plain', 'application/octet-stream', 'application/xhtml+xml', 'text/markdown'),
      }),
      30,
    );
    const results = await probe({ timeoutMs: 1_200, random });
    expect(results).toHaveLength(pathologicalPages().length + random.length);
    const slow = results.filter((r) => r.ms >= 2_000).map((r) => `${r.name}: ${Math.round(r.ms)} ms`);
    // The time the event loop was busy (not idle) during each extraction bounds the longest stretch it was held.
    const held = results.filter((r) => r.busyMs >= 100).map((r) => `${r.name}: busy ${Math.round(r.busyMs)} ms`);
    const wrong = results.filter((r) => ('error' in r.outcome) || (r.mustRead && !('text' in r.outcome && r.outcome.text.includes(r.word ?? ''))));
    console.log(`extraction threads: ${results.length} pages; slowest ${Math.round(Math.max(...results.map((r) => r.ms)))} ms; event loop busy at most ${Math.max(...results.map((r) => r.busyMs)).toFixed(1)} ms during one`);
    expect(slow).toEqual([]);
    expect(held).toEqual([]);
    expect(wrong.map((r) => `${r.name}: ${JSON.stringify(r.outcome).slice(0, 200)}`)).toEqual([]);
  });

  it('gives up a page past its deadline or its heap limit as ExtractionAbandoned, and the next page is read on a fresh thread', async () => {
    const big = `<html><body>${'<h2>title</h2><p>a, b, c.</p>'.repeat(150_000)}</body></html>`;
    const hurried = new ExtractionWorkers({ timeoutMs: 50, size: 1 });
    const cramped = new ExtractionWorkers({ timeoutMs: 60_000, size: 1, maxHeapMb: 64 });
    try {
      expect(hurried.threaded).toBe(true);
      await expect(hurried.extract(big, { url: 'http://site.test/' })).rejects.toThrow(new ExtractionAbandoned('the page took longer than 0.05 s to extract'));
      expect((await hurried.extract('<p>still reading</p>', { url: 'http://site.test/' })).text).toBe('still reading');
      await expect(cramped.extract(big, { url: 'http://site.test/' })).rejects.toThrow(new ExtractionAbandoned('the page needs more than 64 MB to extract'));
      expect((await cramped.extract('<p>still reading</p>', { url: 'http://site.test/' })).text).toBe('still reading');
    } finally {
      await Promise.all([hurried.close(), cramped.close()]);
    }
  });

  it('queues pages beyond its threads and answers each, in any order of completion', async () => {
    const workers = new ExtractionWorkers({ timeoutMs: 10_000, size: 2 });
    try {
      const texts = await Promise.all(Array.from({ length: 12 }, (_, i) => workers.extract(`<p>page number ${i}</p>`, { url: `http://site.test/${i}` }).then((d) => d.text)));
      expect(texts).toEqual(Array.from({ length: 12 }, (_, i) => `page number ${i}`));
    } finally {
      await workers.close();
    }
    await expect(workers.extract('<p>x</p>', { url: 'http://site.test/' })).rejects.toThrow('closed');
  });
});
