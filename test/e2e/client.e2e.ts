import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type * as Client from '../../libs/client/src';
import { startCuttingProxy, startLosingProxy } from '../support/faulty-proxies';
import { useService } from './harness';

jest.setTimeout(120_000);

/** The client as it is published: the build's dist/libs/client, through its package.json. */
const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist', 'libs', 'client');
const CLIENT_TYPES_FILE = path.join(ROOT, 'libs', 'client', 'src', 'openapi.ts');
const { WebResearch, APIError } = require(DIST) as typeof Client;

const TERMINAL = ['run.completed', 'run.failed', 'run.cancelled'];

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** The team's usage once its credits have reached `atLeast` (the usage read model follows the log). */
async function usageOnce(client: Client.WebResearch, atLeast: number): Promise<Client.UsageResponse> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const usage = await client.usage();
    if (usage.total_credits >= atLeast || Date.now() > deadline) return usage;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the TypeScript client, imported from dist/libs/client, against the standalone service', () => {
  // A low rate limit, so the service itself answers some calls 429; the client retries them.
  const ctx = useService('standalone', { RATE_LIMIT_RPS: '2', RATE_LIMIT_BURST: '6' });
  const client = () => new WebResearch({ baseURL: ctx.svc.baseUrl, apiKey: ctx.svc.demoKey, maxRetries: 8 });

  it('is a package of its own: package.json with name, exports and types beside the CommonJS entry and its declarations', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(DIST, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('@web-research/client');
    expect(pkg.exports['.']).toMatchObject({ types: './index.d.ts', require: './index.js' });
    expect(fs.readFileSync(path.join(DIST, pkg.types), 'utf8')).toContain('WebResearch');
    expect(fs.readFileSync(path.join(DIST, 'client.d.ts'), 'utf8')).toContain('export declare class WebResearch');
    expect(typeof WebResearch).toBe('function');
  });

  it("types a consumer's code from its declarations alone: a body of the wrong shape does not compile", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-client-consumer-'));
    const file = path.join(dir, 'use.ts');
    fs.writeFileSync(
      file,
      [
        `import { APIError, WebResearch } from ${JSON.stringify(DIST)};`,
        'export async function main(client: WebResearch): Promise<string> {',
        "  const { results } = await client.search({ queries: ['battery'], depth: 'fast' });",
        "  const run = await client.searches.create({ queries: ['battery'], prompt: 'What is new?' });",
        '  for await (const event of client.searches.stream(run.search_id)) if (event.event === "run.completed") break;',
        "  const task = await client.tasks.create({ task: 'When?', output_schema: { type: 'text' } });",
        "  const { links } = await client.map({ url: 'https://example.com/', search: 'pricing' });",
        "  const crawl = await client.crawl.create({ url: 'https://example.com/', limit: 10, include_paths: ['^/docs'] });",
        '  for await (const event of client.crawl.stream(crawl.crawl_id)) if (event.event === "run.completed") break;',
        '  const { pages, counts } = await client.crawl.retrieve(crawl.crawl_id, { limit: 50, offset: 0 });',
        "  await client.monitors.create({ url: 'https://example.com/pricing' });",
        '  // @ts-expect-error a crawl reads markdown, text or html',
        "  await client.crawl.create({ url: 'https://example.com/', format: 'pdf' });",
        '  const error = await client.search({ queries: [] }).catch((e: unknown) => e);',
        '  if (error instanceof APIError && typeof error.detail !== "string") return error.detail[0]!.msg;',
        '  // @ts-expect-error queries is a list of strings',
        "  await client.search({ queries: 'battery' });",
        '  return results[0]!.url + task.status + links[0]!.url + pages[0]!.title + counts.read;',
        '}',
      ].join('\n'),
    );
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [
      tsc,
      '--noEmit',
      '--strict',
      '--module',
      'commonjs',
      '--target',
      'ES2022',
      '--lib',
      'ES2023',
      '--types',
      'node',
      '--typeRoots',
      path.join(ROOT, 'node_modules', '@types'),
      file,
    ];
    const result = await promisify(execFile)(process.execPath, args).then(
      () => ({ code: 0, out: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }),
    );
    expect(result).toEqual({ code: 0, out: '' });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has its types generated from the OpenAPI document the service serves (npm run client:types when this fails)', async () => {
    const generator = path.join(ROOT, 'dist', 'scripts', 'client-types.js');
    const { stdout: expected } = await promisify(execFile)(process.execPath, [generator, '--print', ctx.svc.baseUrl], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(expected).toContain('export interface paths');
    const checkedIn = fs.readFileSync(CLIENT_TYPES_FILE, 'utf8');
    if (checkedIn !== expected)
      throw new Error(
        `${path.relative(ROOT, CLIENT_TYPES_FILE)} differs from the served OpenAPI document: run \`npm run client:types\` and commit it`,
      );
  });

  it('runs a search: ranked rows with URLs and the credits it cost', async () => {
    const answer = await client().search({ queries: ['sodium-ion battery'], depth: 'fast', limit: 5 });
    expect(answer.results.length).toBeGreaterThan(0);
    for (const row of answer.results) expect(row.url).toMatch(/^https:\/\//);
    expect(answer.credits).toBeGreaterThanOrEqual(1);
  });

  it('streams a deep run to its terminal event across a dropped connection: every event once, in order', async () => {
    const run = await client().searches.create({
      queries: ['sodium-ion battery cathode', 'Harborview battery plant'],
      max_fetches: 4,
    });
    expect(run.status).toMatch(/queued|running/);
    const proxy = await startCuttingProxy(Number(new URL(ctx.svc.baseUrl).port), 2);
    try {
      const proxied = new WebResearch({ baseURL: proxy.url, apiKey: ctx.svc.demoKey, maxRetries: 8 });
      const events = await collect(proxied.searches.stream(run.search_id));
      // The first connection was cut after two events; the second resumed after the second one.
      expect(proxy.streams).toHaveLength(2);
      expect(proxy.streams[0]!.lastEventId).toBeUndefined();
      expect(proxy.streams[1]!.lastEventId).toBe(events[1]!.id);
      const ids = events.map((e) => BigInt(e.id));
      for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
      expect(events.at(-1)!.event).toBe('run.completed');
      expect(events.filter((e) => TERMINAL.includes(e.event))).toHaveLength(1);
      // The same run read again in one go, without the proxy: the same events.
      const whole = await collect(client().searches.stream(run.search_id));
      expect(events.map((e) => [e.id, e.event])).toEqual(whole.map((e) => [e.id, e.event]));
      const done = await client().searches.retrieve(run.search_id);
      expect(done.status).toBe('completed');
      expect((events.at(-1)!.data as { search_id: string }).search_id).toBe(run.search_id);
    } finally {
      await proxy.close();
    }
  });

  it('runs a task against a JSON schema and reads it back', async () => {
    const schema = {
      type: 'object',
      properties: { founded_year: { type: 'integer', description: 'Year the company was founded' } },
      required: ['founded_year'],
    };
    const view = await client().tasks.create({
      task: 'When was Acme Robotics founded?',
      processor: 'base',
      output_schema: { type: 'json', json_schema: schema },
      wait_seconds: 60,
    });
    expect(view.status).toBe('completed');
    expect(view.output).toEqual({ founded_year: 2014 });
    const again = await client().tasks.retrieve(view.task_id);
    expect(again.output).toEqual(view.output);
    const events = await collect(client().tasks.stream(view.task_id));
    expect(events.at(-1)).toMatchObject({
      event: 'run.completed',
      data: { task_id: view.task_id, output: { founded_year: 2014 } },
    });
    const page = await client().tasks.list({ limit: 5 });
    expect(page.items.map((t) => t.task_id)).toContain(view.task_id);
  });

  it('throws a 422 as an APIError with the service list, its request id and no retry', async () => {
    const error = (await client()
      .search({ queries: [] })
      .catch((e: unknown) => e)) as Client.APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(422);
    expect(Array.isArray(error.detail)).toBe(true);
    expect(error.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'queries'], type: 'too_short' }));
    expect(error.requestId).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    const unknown = (await client()
      .searches.retrieve('search_does_not_exist')
      .catch((e: unknown) => e)) as Client.APIError;
    expect(unknown.status).toBe(404);
    expect(typeof unknown.detail).toBe('string');
  });

  it('answers a chat completion whole, and streamed (OpenAI chunks) to [DONE] with the usage chunk when asked', async () => {
    const whole = await client().chat.completions.create({
      model: 'base',
      messages: [{ role: 'user', content: 'When was Acme Robotics founded?' }],
    });
    expect(whole.object).toBe('chat.completion');
    expect(whole.choices[0]!.message.content).toContain('2014');
    expect(whole.citations!.length).toBeGreaterThan(0);
    const chunks = await collect(
      await client().chat.completions.create({
        model: 'base',
        messages: [{ role: 'user', content: 'When was Acme Robotics founded?' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('2014');
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
  });

  describe('a retried POST is done and charged once', () => {
    it('a 503 whose work was done: the retry, with the same Idempotency-Key, replays the answer; usage counts one search', async () => {
      const key = (await ctx.svc.keys('create', '--team', 'client-503')).stdout.trim();
      ctx.secrets.push(key);
      const proxy = await startLosingProxy(ctx.svc.baseUrl, 1, 503);
      try {
        const lossy = new WebResearch({ baseURL: proxy.url, apiKey: key, maxRetries: 2 });
        const answer = await lossy.search({ queries: ['tram extension'], depth: 'fast' });
        expect(answer.results.length).toBeGreaterThan(0);
        expect(proxy.posts).toHaveLength(2);
        expect(proxy.posts[1]!.idempotencyKey).toBe(proxy.posts[0]!.idempotencyKey);
        expect(proxy.posts.map((p) => [p.status, p.replayed])).toEqual([
          [200, null],
          [200, 'true'],
        ]);
        const direct = new WebResearch({ baseURL: ctx.svc.baseUrl, apiKey: key, maxRetries: 8 });
        const usage = await usageOnce(direct, answer.credits);
        expect(usage.total_credits).toBe(answer.credits);
        expect(usage.days.filter((d) => d.sku === 'sku_search').map((d) => d.quantity)).toEqual([1]);
      } finally {
        await proxy.close();
      }
    });

    it('the same Idempotency-Key twice at once: the second waits out the 409 (Retry-After) and gets the first answer; one run, one charge', async () => {
      const key = (await ctx.svc.keys('create', '--team', 'client-409')).stdout.trim();
      ctx.secrets.push(key);
      const proxy = await startLosingProxy(ctx.svc.baseUrl, 0, 503);
      try {
        const c = new WebResearch({ baseURL: proxy.url, apiKey: key, maxRetries: 8 });
        // The research tier reads for seconds: the second call arrives while the first is still being answered.
        const body = {
          task: 'What is known about sodium-ion batteries at Harborview University?',
          processor: 'ultra' as const,
          output_schema: { type: 'text' },
          wait_seconds: 120,
        };
        const [first, second] = await Promise.all([
          c.tasks.create(body, { idempotencyKey: 'task-once-1' }),
          c.tasks.create(body, { idempotencyKey: 'task-once-1' }),
        ]);
        expect(second.task_id).toBe(first.task_id);
        expect(second.status).toBe('completed');
        expect(proxy.posts.some((p) => p.status === 409)).toBe(true);
        expect(proxy.posts.filter((p) => p.status === 200 && p.replayed === 'true')).toHaveLength(1);
        const direct = new WebResearch({ baseURL: ctx.svc.baseUrl, apiKey: key, maxRetries: 8 });
        expect((await direct.tasks.list()).total).toBe(1);
        const usage = await usageOnce(direct, first.credits);
        expect(usage.total_credits).toBe(first.credits);
      } finally {
        await proxy.close();
      }
    });

    it("429s from the service's own rate limit: every call gets through after Retry-After, each charged once", async () => {
      const key = (await ctx.svc.keys('create', '--team', 'client-429')).stdout.trim();
      ctx.secrets.push(key);
      const proxy = await startLosingProxy(ctx.svc.baseUrl, 0, 429);
      try {
        const limited = new WebResearch({ baseURL: proxy.url, apiKey: key, maxRetries: 8 });
        const answers = await Promise.all(
          Array.from({ length: 9 }, (_, i) => limited.search({ queries: [`battery ${i}`], depth: 'fast' })),
        );
        const throttled = proxy.posts.filter((p) => p.status === 429);
        expect(throttled.length).toBeGreaterThan(0);
        // Every 429 was followed by a retry of the same call (same key) that was answered 200.
        const answeredKeys = new Set(proxy.posts.filter((p) => p.status === 200).map((p) => p.idempotencyKey));
        expect(answeredKeys.size).toBe(9);
        for (const post of throttled) expect(answeredKeys.has(post.idempotencyKey)).toBe(true);
        const credits = answers.reduce((sum, a) => sum + a.credits, 0);
        const usage = await usageOnce(
          new WebResearch({ baseURL: ctx.svc.baseUrl, apiKey: key, maxRetries: 8 }),
          credits,
        );
        expect(usage.total_credits).toBe(credits);
        expect(usage.days.filter((d) => d.sku === 'sku_search').reduce((sum, d) => sum + d.quantity, 0)).toBe(9);
      } finally {
        await proxy.close();
      }
    });
  });
});
