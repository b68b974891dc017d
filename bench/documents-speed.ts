import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extractAny, extractDocument } from '@app/extraction';
import { BrowserRenderer } from '@app/fetch';
import { reportPdf, SCRIPTED_TEXT, scriptedPage } from '../test/support/documents';

/** Pages per second of one more kind of document, beside HTML in bench:extract's table. */
export interface DocumentSpeed {
  kind: string;
  pagesPerSecond: number | null;
  msPerPage: number | null;
  pages: number;
  note: string;
}

/**
 * PDF pages per second: the test's three-page report (headings, paragraphs, a table, metadata)
 * read through PDF.js and laid out, on this thread, for at least `seconds`.
 */
export async function pdfSpeed(seconds: number): Promise<DocumentSpeed> {
  const body = Buffer.from(await reportPdf()).toString('base64');
  const options = {
    url: 'https://bench.invalid/report.pdf',
    contentType: 'application/pdf',
    encoding: 'base64' as const,
  };
  const first = await extractAny(body, options); // warm up (loads PDF.js)
  const perDocument = first.pages ?? 1;
  let pages = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    await extractAny(body, options);
    pages += perDocument;
  }
  const elapsed = performance.now() - started;
  return {
    kind: 'PDF (PDF.js + layout)',
    pagesPerSecond: pages / (elapsed / 1000),
    msPerPage: elapsed / pages,
    pages,
    note: `${perDocument}-page report, one thread`,
  };
}

/**
 * Rendered pages per second: a loopback page whose text only its script writes, loaded in the
 * headless Chromium (one tab at a time, every request through the address guard) and extracted.
 * Without a browser on the machine: not measured.
 */
export async function renderSpeed(
  seconds: number,
  browserPath = process.env.BROWSER_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
): Promise<DocumentSpeed> {
  const renderer = new BrowserRenderer({ executablePath: browserPath, poolSize: 1, timeoutMs: 15_000 });
  if (!renderer.available)
    return {
      kind: 'rendered HTML (Chromium)',
      pagesPerSecond: null,
      msPerPage: null,
      pages: 0,
      note: `no browser at ${browserPath}`,
    };
  const html = scriptedPage();
  const site = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const allowed = new BrowserRenderer({
    executablePath: browserPath,
    poolSize: 1,
    timeoutMs: 15_000,
    allowHosts: [new URL(url).host],
  });
  try {
    const once = async () => {
      const page = await allowed.render(url);
      const doc = extractDocument(page.html, { url: page.finalUrl, contentType: 'text/html' });
      if (!doc.text.includes(SCRIPTED_TEXT)) throw new Error('the rendered page lacks its scripted text');
    };
    await once(); // warm up (launches the browser)
    let pages = 0;
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      await once();
      pages++;
    }
    const elapsed = performance.now() - started;
    return {
      kind: 'rendered HTML (Chromium)',
      pagesPerSecond: pages / (elapsed / 1000),
      msPerPage: elapsed / pages,
      pages,
      note: 'loopback page, one tab, load + network idle + extract',
    };
  } finally {
    await allowed.close();
    await new Promise((resolve) => site.close(resolve));
  }
}
