import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '@app/config';
import { chargeStream } from '@app/domain';
import { SqliteEventStore } from '@app/eventstore';
import { ExtractionWorkers } from '@app/extraction';
import { BrowserRenderer, HttpFetcher } from '@app/fetch';
import { ExtractService } from '../../../apps/extraction/src/extract.service';
import { SCRIPTED_TEXT, scriptedPage } from '../../support/documents';

/**
 * What a render costs, with Debian's chromium against a real loopback site: `sku_render` beside
 * `sku_extract` on an extract, on the reading other services charge themselves (its usage), and
 * for a render given up at its deadline.
 */
const BROWSER = process.env.BROWSER_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
jest.setTimeout(120_000);

describe('rendering is charged (sku_render)', () => {
  let server: http.Server;
  let origin: string;
  let dir: string;
  let events: SqliteEventStore;
  let fetcher: HttpFetcher;
  let workers: ExtractionWorkers;
  let renderer: BrowserRenderer;
  let service: ExtractService;
  let calls = 0;
  const charge = () => ({ team_id: 'acme', request_id: 'r1', charge_id: `c${++calls}` });

  beforeAll(async () => {
    if (!fs.existsSync(BROWSER)) throw new Error(`these tests need Chromium at ${BROWSER} (apt-get install chromium)`);
    server = http.createServer((req, res) => {
      if (req.url === '/scripted') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(scriptedPage());
      if (req.url === '/spin')
        return void res
          .writeHead(200, { 'Content-Type': 'text/html' })
          .end(
            '<!doctype html><html><body><p>Thin text.</p><script>setTimeout(() => { for (;;) {} })</script></body></html>',
          );
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-charge-'));
    events = new SqliteEventStore(path.join(dir, 'events.db'));
    const allowHosts = [new URL(origin).host];
    fetcher = new HttpFetcher({ allowHosts });
    workers = new ExtractionWorkers({ timeoutMs: 10_000, size: 1 });
    renderer = new BrowserRenderer({ executablePath: BROWSER, poolSize: 1, timeoutMs: 8_000, allowHosts });
    service = new ExtractService(fetcher, events, workers, renderer, loadConfig({}));
  });
  afterAll(async () => {
    await renderer?.close();
    await fetcher?.close();
    await workers?.close();
    await events?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('charges an extract with render "always" sku_render x1 beside sku_extract', async () => {
    const context = charge();
    const reply = await service.extract(
      { urls: [`${origin}/scripted`], format: 'text', full_content: true, excerpts: false, render: 'always' },
      context,
    );
    expect(reply.results[0]!.content).toContain(SCRIPTED_TEXT);
    expect(reply.usage).toEqual([
      { sku: 'sku_extract', quantity: 1, credits: 2 },
      { sku: 'sku_render', quantity: 1, credits: 1 },
    ]);
    expect(reply.credits).toBe(3);
    const charged = await events.readStream(chargeStream('acme', context.charge_id));
    expect(JSON.stringify(charged.map((e) => e.data))).toContain('"sku_render"');
  });

  it('charges a render that ran to its deadline, though the URL failed and costs no sku_extract', async () => {
    const reply = await service.extract(
      { urls: [`${origin}/spin`], format: 'text', full_content: true, excerpts: false, render: 'always' },
      charge(),
    );
    expect(reply.results[0]!.error).toMatch(/RENDER_TIMEOUT_MS/);
    expect(reply.usage).toEqual([
      { sku: 'sku_extract', quantity: 0, credits: 0 },
      { sku: 'sku_render', quantity: 1, credits: 1 },
    ]);
  });

  it('bounds an extract call as a whole (EXTRACT_CALL_TIMEOUT_MS): a render still running then is that URL’s error, charged its render', async () => {
    const hurried = new ExtractService(fetcher, events, workers, renderer, {
      ...loadConfig({}),
      extractCallTimeoutMs: 1_500,
    });
    const started = Date.now();
    const reply = await hurried.extract(
      { urls: [`${origin}/spin`], format: 'text', full_content: true, excerpts: false, render: 'always' },
      charge(),
    );
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(reply.results[0]!.error).toMatch(/not read within the call's 1\.5 s \(EXTRACT_CALL_TIMEOUT_MS\)/);
    expect(reply.usage).toEqual([
      { sku: 'sku_extract', quantity: 0, credits: 0 },
      { sku: 'sku_render', quantity: 1, credits: 1 },
    ]);
    // The render ends on its own deadline; the next one renders.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  });

  it('hands the renders of an uncharged read (research, FindAll, monitors, search contents) to its caller', async () => {
    const rendered = await service.read({
      urls: [`${origin}/scripted`],
      format: 'text',
      full_content: true,
      excerpts: false,
      render: 'always',
    });
    expect(rendered.usage).toEqual([{ sku: 'sku_render', quantity: 1, credits: 1 }]);
    expect(rendered.credits).toBe(1);
    // Per page too: a run records which of its reads it is charged a render for.
    expect(rendered.results[0]!.rendered).toBe(true);
    const plain = await service.read({
      urls: [`${origin}/scripted`],
      format: 'text',
      full_content: true,
      excerpts: false,
      render: 'never',
    });
    expect(plain.usage).toEqual([]);
    expect(plain.results[0]!.rendered).toBeUndefined();
  });
});
