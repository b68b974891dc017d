import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DOCX_FACT,
  encryptedPdf,
  factsDocx,
  imageOnlyPdf,
  PDF_FACTS,
  reportPdf,
  SCRIPTED_TEXT,
  scriptedPage,
} from '../support/documents';
import { bearer, type RunningService, startService } from '../support/service-process';

jest.setTimeout(240_000);

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
type Result = {
  url: string;
  content: string | null;
  title: string | null;
  error: string | null;
  content_type: string | null;
  pages: number | null;
  published_date: string | null;
};

/**
 * PDF, Word and script-filled pages through the standalone service, as a user meets them: a
 * loopback site (allowed by host and port) serves documents the test made; `LOCAL_INDEX_DIR`
 * holds the same PDF and Word file. Extract reads each (2 credits per URL read, whatever its
 * type), says why for the encrypted and the image-only PDF, renders the scripted page only when
 * rendering is on; a deep run answers from the PDF alone and cites its page; a task fills a
 * field from the Word file. Rendering uses Debian's chromium (`.ci/run` installs it).
 */
describe('documents and rendered pages (standalone)', () => {
  let svc: RunningService;
  let site: http.Server;
  let origin: string;
  let dir: string;
  const files = new Map<string, { type: string; body: Buffer }>();

  beforeAll(async () => {
    const pdf = Buffer.from(await reportPdf());
    const docx = await factsDocx();
    files.set('/report.pdf', { type: 'application/pdf', body: pdf });
    files.set('/download?id=7', { type: 'application/octet-stream', body: pdf }); // told by its bytes
    files.set('/scan.pdf', { type: 'application/pdf', body: Buffer.from(await imageOnlyPdf()) });
    files.set('/locked.pdf', { type: 'application/pdf', body: encryptedPdf() });
    files.set('/facts.docx', { type: DOCX, body: docx });
    files.set('/tides', { type: 'text/html', body: Buffer.from(scriptedPage()) });
    files.set('/truncated.pdf', { type: 'application/pdf', body: pdf.subarray(0, Math.floor(pdf.length / 3)) });
    files.set('/nested.pdf', {
      type: 'application/pdf',
      body: Buffer.from(
        `%PDF-1.4\n1 0 obj\n${'<< /A '.repeat(100_000)}\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
        'latin1',
      ),
    });
    site = http.createServer((req, res) => {
      const file = files.get(req.url ?? '');
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': file.type }).end(file.body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-documents-'));
    fs.writeFileSync(path.join(dir, 'vantor-report.pdf'), pdf);
    fs.writeFileSync(path.join(dir, 'quillmere-profile.docx'), docx);
    svc = await startService('standalone', {
      FETCH_ALLOW_HOSTS: new URL(origin).host,
      LOCAL_INDEX_DIR: dir,
      LOG_LEVEL: 'warn',
      EXTRACT_TIMEOUT_MS: '8000',
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await new Promise((resolve) => site?.close(resolve));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
  const extract = async (body: Record<string, unknown>) => {
    const response = await fetch(`${svc.baseUrl}/v1/extract`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as {
      results: Result[];
      credits: number;
      usage: { sku: string; quantity: number; credits: number }[];
    };
  };

  it('POST /v1/extract reads PDFs (also one served as octet-stream) and a Word file, with content_type and pages, and says why for the encrypted and the image-only PDF', async () => {
    const urls = ['/report.pdf', '/download?id=7', '/facts.docx', '/scan.pdf', '/locked.pdf'].map(
      (p) => `${origin}${p}`,
    );
    const body = await extract({ urls, format: 'markdown' });
    const [pdf, sniffed, docx, scan, locked] = body.results;
    for (const result of [pdf!, sniffed!]) {
      expect(result).toMatchObject({
        error: null,
        content_type: 'application/pdf',
        pages: 3,
        title: 'Vantor Observatory Annual Report',
        published_date: '2024-03-05',
      });
      for (const fact of PDF_FACTS) expect(result.content).toContain(fact);
      expect(result.content).toMatch(/^\| Q3 \| 15,900 \| 210 \|$/m);
    }
    expect(docx).toMatchObject({
      error: null,
      content_type: DOCX,
      pages: null,
      title: 'Quillmere Tools company profile',
    });
    expect(docx!.content).toMatch(/^## Leadership$/m);
    expect(docx!.content).toContain(DOCX_FACT.ceo);
    expect(scan!.error).toBe(`${origin}/scan.pdf: no extractable text (image-only or scanned PDF)`);
    expect(locked!.error).toMatch(/encrypted/);
    expect(scan!.content).toBeNull();
    expect(body.credits).toBe(6);
  });

  it('answers a truncated and a deeply nested PDF with an error within the deadline, and the service reads on', async () => {
    const started = performance.now();
    const body = await extract({ urls: [`${origin}/truncated.pdf`, `${origin}/nested.pdf`], format: 'text' });
    expect(performance.now() - started).toBeLessThan(25_000);
    for (const result of body.results) expect(result.error).toMatch(/PDF|took longer|needs more than/);
    expect((await fetch(`${svc.baseUrl}/healthz`)).status).toBe(200);
    expect((await extract({ urls: [`${origin}/report.pdf`] })).results[0]!.pages).toBe(3);
  });

  it('GET /v1/extract reads a PDF too', async () => {
    const response = await fetch(
      `${svc.baseUrl}/v1/extract?url=${encodeURIComponent(`${origin}/report.pdf`)}&format=text`,
      { headers: bearer(svc.demoKey) },
    );
    expect(response.status).toBe(200);
    const [result] = ((await response.json()) as { results: Result[] }).results;
    expect(result).toMatchObject({ error: null, content_type: 'application/pdf', pages: 3 });
    expect(result!.content).toContain(PDF_FACTS[2]);
  });

  it('renders a page whose text only a script writes: auto and always read it, never does not', async () => {
    const url = `${origin}/tides`;
    const asFetched = await extract({ urls: [url], format: 'text', render: 'never' });
    const never = asFetched.results[0]!;
    expect(never.content ?? '').not.toContain(SCRIPTED_TEXT);
    expect(asFetched.usage.map((item) => item.sku)).not.toContain('sku_render');
    for (const render of ['auto', 'always', undefined]) {
      const reply = await extract({ urls: [url], format: 'text', ...(render && { render }) });
      const result = reply.results[0]!;
      expect(result).toMatchObject({ error: null, content_type: 'text/html' });
      expect(result.content).toContain(SCRIPTED_TEXT);
      // The render is charged beside the extract.
      expect(reply.usage).toEqual([
        { sku: 'sku_extract', quantity: 1, credits: 2 },
        { sku: 'sku_render', quantity: 1, credits: 1 },
      ]);
      expect(reply.credits).toBe(3);
    }
    const bad = await fetch(`${svc.baseUrl}/v1/extract`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ urls: [url], render: 'sometimes' }),
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('render');
  });

  it('a deep run over the local index answers a question only the PDF answers, and cites the PDF with its page', async () => {
    const created = await fetch(`${svc.baseUrl}/v1/search`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({
        depth: 'deep',
        queries: ['Vantor dome telescope primary mirror size'],
        objective: 'How large is the primary mirror of the Vantor dome telescope?',
        max_fetches: 4,
      }),
    });
    expect(created.status).toBe(202);
    const id = ((await created.json()) as { search_id: string }).search_id;
    let view: { status: string; report: string | null; sources: Array<{ index: number; url: string }> | null } = {
      status: 'queued',
      report: null,
      sources: null,
    };
    for (const deadline = Date.now() + 120_000; ['queued', 'running'].includes(view.status) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      view = (await (
        await fetch(`${svc.baseUrl}/v1/searches/${id}`, { headers: bearer(svc.demoKey) })
      ).json()) as typeof view;
    }
    expect(view.status).toBe('completed');
    const cited = view.sources!.find((s) => s.url === 'https://local.invalid/vantor-report.pdf#page=3');
    expect(cited).toBeDefined();
    expect(view.report).toContain('3.6');
    expect(view.report).toContain(`[${cited!.index}]`);
  });

  it('a task fills a field from the Word file in the local index', async () => {
    const response = await fetch(`${svc.baseUrl}/v1/tasks`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({
        task: 'Quillmere Tools company profile',
        wait_seconds: 120,
        output_schema: {
          type: 'json',
          json_schema: {
            type: 'object',
            properties: {
              founded_year: { type: 'integer', description: 'Year the company was founded' },
              ceo: { type: 'string', description: 'Name of the chief executive officer' },
            },
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    const view = (await response.json()) as {
      status: string;
      output: Record<string, unknown>;
      basis: Array<{ field: string; citations: Array<{ url: string }> }>;
    };
    expect(view.status).toBe('completed');
    expect(view.output).toMatchObject({ founded_year: DOCX_FACT.founded, ceo: DOCX_FACT.ceo });
    expect(view.basis.find((b) => b.field === 'ceo')!.citations.map((c) => c.url)).toContain(
      'https://local.invalid/quillmere-profile.docx',
    );
  });
});

describe('documents a crawled site links to (standalone)', () => {
  it('a PDF and a Word file linked from a seed site are fetched, indexed and found, the PDF hit naming its page', async () => {
    const pdf = Buffer.from(await reportPdf());
    const docx = await factsDocx();
    const served = new Map<string, { type: string; body: Buffer }>([
      [
        '/',
        {
          type: 'text/html',
          body: Buffer.from(
            '<!doctype html><html><head><title>Vantor Trust</title></head><body><main><h1>Vantor Trust</h1><p>Read our <a href="/files/annual-report.pdf">annual report</a> and the <a href="/files/supplier.docx">supplier profile</a>.</p></main></body></html>',
          ),
        },
      ],
      ['/files/annual-report.pdf', { type: 'application/pdf', body: pdf }],
      ['/files/supplier.docx', { type: DOCX, body: docx }],
    ]);
    const site = http.createServer((req, res) => {
      const file = served.get(req.url ?? '');
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': file.type }).end(file.body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const svc = await startService('standalone', {
      LOCAL_INDEX_SEEDS: `https://vantor-trust.test=${origin}/`,
      FETCH_ALLOW_HOSTS: new URL(origin).host,
      LOG_LEVEL: 'warn',
    });
    try {
      const search = async (query: string) => {
        const response = await fetch(`${svc.baseUrl}/v1/search`, {
          method: 'POST',
          headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
          body: JSON.stringify({ queries: [query], limit: 5 }),
        });
        return ((await response.json()) as { results: Array<{ url: string }> }).results.map((r) => r.url);
      };
      const eventually = async (query: string, wanted: string) => {
        let urls: string[] = [];
        for (const deadline = Date.now() + 60_000; !urls.includes(wanted) && Date.now() < deadline;) {
          urls = await search(query);
          if (!urls.includes(wanted)) await new Promise((resolve) => setTimeout(resolve, 250));
        }
        return urls;
      };
      expect(
        await eventually(
          'Vantor telescope primary mirror Jena',
          'https://vantor-trust.test/files/annual-report.pdf#page=3',
        ),
      ).toContain('https://vantor-trust.test/files/annual-report.pdf#page=3');
      expect(
        await eventually(
          'Vantor annual visitor numbers record',
          'https://vantor-trust.test/files/annual-report.pdf#page=2',
        ),
      ).toContain('https://vantor-trust.test/files/annual-report.pdf#page=2');
      expect(
        await eventually('Quillmere Tools hand tools Sheffield', 'https://vantor-trust.test/files/supplier.docx'),
      ).toContain('https://vantor-trust.test/files/supplier.docx');
    } finally {
      await svc.stop();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

describe('without a browser (standalone)', () => {
  it("render auto reads the page as fetched, and render always is that URL's error saying no browser is available", async () => {
    const site = http.createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(scriptedPage()),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/tides`;
    const svc = await startService('standalone', {
      BROWSER_PATH: '/nonexistent/chromium',
      FETCH_ALLOW_HOSTS: new URL(url).host,
      LOG_LEVEL: 'warn',
    });
    try {
      const extract = async (render: string) => {
        const response = await fetch(`${svc.baseUrl}/v1/extract`, {
          method: 'POST',
          headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
          body: JSON.stringify({ urls: [url], format: 'text', render }),
        });
        expect(response.status).toBe(200);
        return (await response.json()) as { results: Result[]; credits: number };
      };
      const auto = await extract('auto');
      expect(auto.results[0]!.content ?? '').not.toContain(SCRIPTED_TEXT);
      const always = await extract('always');
      expect(always.results[0]!.error).toBe(
        `${url}: render "always" needs a browser and none is available (install one: apt-get install chromium, or set BROWSER_PATH)`,
      );
      expect(always.credits).toBe(0);
    } finally {
      await svc.stop();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
