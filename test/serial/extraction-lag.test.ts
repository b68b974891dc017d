import { spawn } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import type { ProbeJob, ProbeResult } from '../support/extraction-probe';
import { pathologicalPages } from '../support/pathological-pages';

/**
 * Timing-sensitive, so run alone after the parallel suites (`npm test`'s serial phase): pages
 * handed to the extraction threads by a process of its own (test/support/extraction-probe.ts, on
 * the compiled code in dist/), each within 2 s, while that process's event loop is never held
 * 100 ms. Beside the other suites' processes on the same two cores, the probe's main thread
 * waited for a core longer than it worked.
 */
jest.setTimeout(300_000);

const PROBE = path.resolve(__dirname, '..', '..', 'dist', 'test', 'support', 'extraction-probe.js');
const SIZE_CAP = 5 * 1024 * 1024;

/** Shapes that hurt parsers and patterns, repeated to any length. */
const FRAGMENTS = [
  '<!---->', '<!--', '-->', '<!-->', '<div>', '</div>', '<p>', 'word ', '<a b ', '<a href="', '"', "'", '<script>', '</script>', '<table><tr><td>',
  '<meta ', '<', '>', '&amp;', '&#x', '<h2>t</h2>', '<x y="z" ', '\u00e9', '\ufffd', '<![CDATA[', '<?xml ', '<svg><path d="', ' ', '\n',
];

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

describe('extraction threads under hostile pages', () => {
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
    // The longest single stretch the event loop was held during each extraction (its busy time in
    // all, the sum of many short stretches for a 5 MB page and its result, is only printed).
    const held = results.filter((r) => r.heldMs >= 100).map((r) => `${r.name}: held ${Math.round(r.heldMs)} ms (busy ${Math.round(r.busyMs)} ms in all)`);
    const wrong = results.filter((r) => ('error' in r.outcome) || (r.mustRead && !('text' in r.outcome && r.outcome.text.includes(r.word ?? ''))));
    console.log(`extraction threads: ${results.length} pages; slowest ${Math.round(Math.max(...results.map((r) => r.ms)))} ms; event loop held at most ${Math.max(...results.map((r) => r.heldMs)).toFixed(1)} ms at once, busy at most ${Math.max(...results.map((r) => r.busyMs)).toFixed(1)} ms during one`);
    expect(slow).toEqual([]);
    expect(held).toEqual([]);
    expect(wrong.map((r) => `${r.name}: ${JSON.stringify(r.outcome).slice(0, 200)}`)).toEqual([]);
  });

});
