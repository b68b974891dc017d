/**
 * A process of its own that hands pages to the extraction threads and measures, per page, how long
 * it took and how long the event loop was busy meanwhile (`node extraction-probe.js` with a JSON
 * job on stdin; one JSON line per page on stdout). Run apart from the test runner, whose own heap
 * (every suite before) would charge its collections to the pages.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import {
  DocumentUnreadable,
  ExtractionAbandoned,
  ExtractionWorkers,
  isBinaryDocument,
} from '../../libs/extraction/src';
import { pathologicalPages } from './pathological-pages';

export interface ProbeJob {
  timeoutMs: number;
  /** Random bodies: `parts` repeated to `size` characters. */
  random: Array<{ parts: string[]; size: number; contentType: string }>;
}

export interface ProbeResult {
  name: string;
  ms: number;
  /** How long the event loop was busy (not idle) in all during the page. */
  busyMs: number;
  /** The longest single stretch it was held during the page (a 10 ms timer's worst lateness, plus its period). */
  heldMs: number;
  /** The page's text, or the error that gave it up. */
  outcome: { text: string } | { abandoned: string } | { error: string };
  mustRead: boolean;
  word: string | null;
}

/** The period of the timer whose lateness measures how long the event loop was held. */
const HELD_RESOLUTION_MS = 10;

async function main(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const job = JSON.parse(input) as ProbeJob;
  const workers = new ExtractionWorkers({ timeoutMs: job.timeoutMs, size: 2, maxHeapMb: 512 });
  // Bodies are made one at a time, just before their page is measured.
  const pages = [
    // A document (PDF, Word) crosses as base64, as the service sends it; other bytes as text.
    ...pathologicalPages().map((p) => ({
      name: p.name,
      body: () =>
        typeof p.body === 'string' ? p.body : p.body.toString(isBinaryDocument(p.contentType) ? 'base64' : 'utf8'),
      encoding: isBinaryDocument(p.contentType) ? ('base64' as const) : undefined,
      contentType: p.contentType,
      mustRead: !!p.mustRead,
      word: p.word,
    })),
    ...job.random.map((r) => {
      const unit = r.parts.join('');
      return {
        name: `${JSON.stringify(r.parts)} x ${r.size} as ${r.contentType}`,
        body: () => unit.repeat(Math.ceil(r.size / unit.length)).slice(0, r.size),
        encoding: undefined,
        contentType: r.contentType,
        mustRead: false,
        word: null,
      };
    }),
  ];
  try {
    for (const { body: make, ...page } of pages) {
      const body = make();
      const before = performance.eventLoopUtilization();
      const delay = monitorEventLoopDelay({ resolution: HELD_RESOLUTION_MS });
      delay.enable();
      const started = performance.now();
      const outcome: ProbeResult['outcome'] = await workers
        .extract(
          body,
          {
            url: 'http://site.test/',
            contentType: page.contentType,
            ...(page.encoding && { encoding: page.encoding }),
          },
          [],
        )
        .then(
          (document) => ({ text: document.text.slice(0, 2_000) }),
          // A document refused for what it holds (a decode bomb) is given up as that URL's error too.
          (error: Error) =>
            error instanceof ExtractionAbandoned || error instanceof DocumentUnreadable
              ? { abandoned: error.message }
              : { error: error.message },
        );
      const ms = performance.now() - started;
      delay.disable();
      const result: ProbeResult = {
        name: page.name,
        ms,
        busyMs: performance.eventLoopUtilization(before).active,
        heldMs: delay.max / 1e6 + HELD_RESOLUTION_MS,
        outcome,
        mustRead: page.mustRead,
        word: page.word,
      };
      process.stdout.write(`${JSON.stringify(result)}\n`);
    }
  } finally {
    await workers.close();
  }
}

void main();
