import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json, useService } from './harness';

jest.setTimeout(60_000);

type Row = {
  url: string;
  title: string;
  snippet: string;
  date: string | null;
  domain: string;
  score: number;
  text?: string;
  highlights?: string[];
  summary?: string;
};
type View = {
  search_id: string;
  status: string;
  results: Row[];
  reranked: boolean;
  report: string | null;
  error: string | null;
};
type Frame = { id: string; event: string; data: unknown };

const post = (svc: RunningService, body: Record<string, unknown>) =>
  fetch(`${svc.baseUrl}/v1/search`, {
    method: 'POST',
    headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
    body: JSON.stringify({ depth: 'deep', ...body }),
  });

async function finished(svc: RunningService, id: string, timeoutMs = 30_000): Promise<View> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = (await json(
      await fetch(`${svc.baseUrl}/v1/searches/${id}`, { headers: bearer(svc.demoKey) }),
    )) as View;
    if (!['queued', 'running'].includes(view.status)) return view;
    if (Date.now() > deadline) throw new Error(`run ${id} stayed ${view.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function deep(svc: RunningService, body: Record<string, unknown>): Promise<View> {
  const response = await post(svc, body);
  expect(response.status).toBe(202);
  const view = await finished(svc, ((await json(response)) as View).search_id);
  // The error beside the status, so a failed run says why.
  expect({ status: view.status, error: view.error }).toEqual({ status: 'completed', error: null });
  return view;
}

/** Defects of deep runs found when tried as a new user would; each test here failed before its fix. */
describe('deep run options and streams (standalone)', () => {
  const ctx = useService('standalone');

  it('re-ranks the results against the objective: reranked is true', async () => {
    const view = await deep(ctx.svc, {
      queries: ['battery'],
      objective: 'sodium-ion battery chemistry research',
      max_fetches: 4,
    });
    expect(view.reranked).toBe(true);
    expect(view.results.length).toBeGreaterThan(0);
    const scores = view.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('applies include_domains and exclude_domains in the run', async () => {
    const plain = await deep(ctx.svc, { queries: ['battery plant', 'sodium-ion battery'], max_fetches: 4 });
    const domains = new Set(plain.results.map((r) => r.domain));
    expect(domains.size).toBeGreaterThan(1);
    const only = [...domains][0]!;
    const included = await deep(ctx.svc, {
      queries: ['battery plant', 'sodium-ion battery'],
      include_domains: [only],
      max_fetches: 4,
    });
    expect(included.results.length).toBeGreaterThan(0);
    for (const row of included.results) expect(row.domain === only || row.domain.endsWith(`.${only}`)).toBe(true);
    const excluded = await deep(ctx.svc, {
      queries: ['battery plant', 'sodium-ion battery'],
      exclude_domains: [only],
      max_fetches: 4,
    });
    expect(excluded.results.length).toBeGreaterThan(0);
    for (const row of excluded.results) expect(row.domain === only || row.domain.endsWith(`.${only}`)).toBe(false);
  });

  it('applies category and freshness in the run', async () => {
    const news = await deep(ctx.svc, {
      queries: ['battery plant', 'tram extension'],
      category: 'news',
      max_fetches: 4,
    });
    const all = await deep(ctx.svc, { queries: ['battery plant', 'tram extension'], max_fetches: 4 });
    expect(news.results.length).toBeGreaterThan(0);
    expect(news.results.length).toBeLessThan(all.results.length);
    const fresh = await deep(ctx.svc, {
      queries: ['battery plant', 'tram extension'],
      freshness: 'week',
      max_fetches: 4,
    });
    const weekAgo = new Date(Date.now() - 8 * 86_400_000).toISOString().slice(0, 10);
    for (const row of fresh.results) expect(row.date !== null && row.date >= weekAgo).toBe(true);
    expect(fresh.results.length).toBeLessThan(all.results.length);
  });

  it('applies max_excerpt_chars and advanced_settings (source policy, excerpt size, contents) in the run', async () => {
    const capped = await deep(ctx.svc, {
      queries: ['sodium-ion battery', 'robot picking arm'],
      max_excerpt_chars: 120,
      max_fetches: 4,
    });
    expect(capped.results.length).toBeGreaterThan(2);
    expect(capped.results.reduce((sum, r) => sum + r.snippet.length, 0)).toBeLessThanOrEqual(120);
    // With contents, highlights and summaries spend the same budget (the page text does not).
    const withContents = await deep(ctx.svc, {
      queries: ['sodium-ion battery', 'robot picking arm'],
      max_excerpt_chars: 120,
      max_fetches: 4,
      advanced_settings: { contents: { text: true, highlights: true, summary: true } },
    });
    const excerptChars = (r: Row) => r.snippet.length + (r.highlights ?? []).join('').length + (r.summary ?? '').length;
    expect(withContents.results.some((r) => r.text)).toBe(true);
    expect(withContents.results.reduce((sum, r) => sum + excerptChars(r), 0)).toBeLessThanOrEqual(120);
    const shaped = await deep(ctx.svc, {
      queries: ['sodium-ion battery', 'robot picking arm'],
      max_fetches: 6,
      advanced_settings: {
        excerpts: { max_chars_per_result: 30 },
        contents: { text: true, summary: true },
        source_policy: { exclude_domains: ['example-daily.test'] },
      },
    });
    expect(shaped.results.length).toBeGreaterThan(0);
    for (const row of shaped.results) {
      expect(row.snippet.length).toBeLessThanOrEqual(30);
      expect(row.domain.endsWith('example-daily.test')).toBe(false);
    }
    const withText = shaped.results.filter((r) => r.text);
    expect(withText.length).toBeGreaterThan(0);
    for (const row of withText) expect(typeof row.summary).toBe('string');
  });

  it('WebSocket: a resume_from sent a second after connecting gets no event twice', async () => {
    const run = (await json(await post(ctx.svc, { queries: ['library renovation'], max_fetches: 3 }))) as View;
    await finished(ctx.svc, run.search_id);
    const url = `${ctx.svc.baseUrl.replace('http', 'ws')}/v1/searches/${run.search_id}/ws`;
    const collect = (resumeFrom: string | undefined, sendAfterMs: number) =>
      new Promise<Frame[]>((resolve, reject) => {
        const frames: Frame[] = [];
        const socket = new WebSocket(url, { headers: bearer(ctx.svc.demoKey) });
        socket.on('open', () => {
          if (resumeFrom !== undefined)
            setTimeout(() => socket.send(JSON.stringify({ resume_from: Number(resumeFrom) })), sendAfterMs);
        });
        socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
        socket.on('close', () => resolve(frames));
        socket.on('error', reject);
      });
    const all = await collect(undefined, 0);
    expect(all.length).toBeGreaterThan(3);
    const resumeAt = all[2]!.id;
    const resumed = await collect(resumeAt, 1_000);
    expect(resumed.map((f) => f.id)).toEqual(all.slice(3).map((f) => f.id));
  });

  it('WebSocket refusals carry X-Request-Id and say what they are', async () => {
    const refusal = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; message: string; requestId: string | undefined; body: string }>((resolve) => {
        const socket = new WebSocket(`${ctx.svc.baseUrl.replace('http', 'ws')}${path}`, { headers });
        socket.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              message: res.statusMessage ?? '',
              requestId: res.headers['x-request-id'] as string | undefined,
              body,
            }),
          );
        });
        socket.on('error', () => undefined);
      });
    const missing = await refusal('/v1/searches/search_nope/ws', {
      ...bearer(ctx.svc.demoKey),
      'X-Request-Id': 'ws-missing-1',
    });
    expect(missing).toMatchObject({ status: 404, message: 'Not Found', requestId: 'ws-missing-1' });
    expect(JSON.parse(missing.body)).toEqual({ detail: expect.stringContaining('search_nope') });
    const anonymous = await refusal('/v1/searches/search_nope/ws', {});
    expect(anonymous).toMatchObject({ status: 401, message: 'Unauthorized' });
    expect(anonymous.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('deep run WebSocket under a rate limit (standalone)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService('standalone', { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '3' });
  }, 60_000);
  afterAll(async () => svc?.stop());

  it('counts upgrades against the key’s bucket: 429 Too Many Requests with Retry-After and X-Request-Id', async () => {
    const statuses: { status: number; message: string; retryAfter?: string; requestId?: string }[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        await new Promise((resolve) => {
          const socket = new WebSocket(`${svc.baseUrl.replace('http', 'ws')}/v1/searches/search_x/ws`, {
            headers: bearer(svc.demoKey),
          });
          socket.on('unexpected-response', (_req, res) =>
            resolve({
              status: res.statusCode ?? 0,
              message: res.statusMessage ?? '',
              retryAfter: res.headers['retry-after'] as string | undefined,
              requestId: res.headers['x-request-id'] as string | undefined,
            }),
          );
          socket.on('error', () => undefined);
        }),
      );
    }
    expect(statuses.slice(0, 3).map((s) => s.status)).toEqual([404, 404, 404]);
    const limited = statuses[4]!;
    expect(limited).toMatchObject({ status: 429, message: 'Too Many Requests' });
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(limited.requestId).toBeTruthy();
  });
});

describe('deep run errors are logged with the run id (standalone, a model that fails)', () => {
  let svc: RunningService;
  let model: http.Server;
  beforeAll(async () => {
    // An OpenAI-compatible stand-in that answers every call after 800 ms with a 400.
    model = http.createServer((req, res) => {
      req.resume();
      setTimeout(
        () =>
          res
            .writeHead(400, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'model refused the request', type: 'invalid_request_error' } })),
        800,
      );
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    svc = await startService('standalone', {
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'test-model',
    });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    model?.close();
  });

  it('an error that ends a cancelled run’s step is logged with the run id, not swallowed', async () => {
    const run = (await json(await post(svc, { queries: ['battery'] }))) as View;
    for (let i = 0; i < 200; i++) {
      if (
        (
          (await json(
            await fetch(`${svc.baseUrl}/v1/searches/${run.search_id}`, { headers: bearer(svc.demoKey) }),
          )) as View
        ).status === 'running'
      )
        break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const cancel = await fetch(`${svc.baseUrl}/v1/searches/${run.search_id}/cancel`, {
      method: 'POST',
      headers: bearer(svc.demoKey),
    });
    expect(cancel.status).toBe(200);
    const logged = () =>
      svc.logFiles
        .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n'))
        .filter((line) => line.includes(run.search_id) && line.includes('model refused the request'));
    for (let i = 0; i < 100 && logged().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(logged().length).toBeGreaterThan(0);
    expect((await finished(svc, run.search_id)).status).toBe('cancelled');
  });
});
