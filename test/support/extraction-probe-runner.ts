/**
 * Drives test/support/extraction-probe.ts from a test or a bench: random hostile bodies, and the
 * probe run as a process of its own on the compiled code in dist/.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import type { ProbeJob, ProbeResult } from './extraction-probe';
import { ROOT } from './service-process';

/** Shapes that hurt parsers and patterns, repeated to any length. */
const FRAGMENTS = [
  '<!---->',
  '<!--',
  '-->',
  '<!-->',
  '<div>',
  '</div>',
  '<p>',
  'word ',
  '<a b ',
  '<a href="',
  '"',
  "'",
  '<script>',
  '</script>',
  '<table><tr><td>',
  '<meta ',
  '<',
  '>',
  '&amp;',
  '&#x',
  '<h2>t</h2>',
  '<x y="z" ',
  '\u00e9',
  '\ufffd',
  '<![CDATA[',
  '<?xml ',
  '<svg><path d="',
  ' ',
  '\n',
];

/** `count` bodies drawn at random up to `sizeCap` characters from the hostile shapes (reproducible with `seed`). */
export function randomHostileBodies(count: number, sizeCap: number, seed?: number): ProbeJob['random'] {
  const arbitrary = fc.record({
    parts: fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 5 }),
    size: fc.integer({ min: 1, max: sizeCap }),
    contentType: fc.constantFrom(
      'text/html',
      'text/plain',
      'application/octet-stream',
      'application/xhtml+xml',
      'text/markdown',
    ),
  });
  return fc.sample(arbitrary, seed === undefined ? count : { numRuns: count, seed });
}

/** Runs the probe process on a job; its results, one per page (the pathological pages, then the random ones). */
export function runExtractionProbe(job: ProbeJob): Promise<ProbeResult[]> {
  const script = path.join(ROOT, 'dist', 'test', 'support', 'extraction-probe.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(
            out
              .trim()
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as ProbeResult),
          )
        : reject(new Error(`probe exited with ${code}`)),
    );
    child.stdin.end(JSON.stringify(job));
  });
}
