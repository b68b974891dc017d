import { LanguageModelError } from '@app/language';
import type { RerankDocument } from '@app/language';
import { OpenAiLanguageModel, type OpenAiLanguageModelOptions } from '@app/language';
import { ReplayServer } from '../../support/replay-server';
import { load, rejection } from './recorded';

/**
 * The OpenAI adapter through the official client against a loopback server speaking the Chat
 * Completions protocol (recorded completion objects), so request shape, retries and mapping are real.
 */
describe('OpenAiLanguageModel (loopback Chat Completions server)', () => {
  const PATH = '/v1/chat/completions';
  let server: ReplayServer;
  const model = (options: Partial<OpenAiLanguageModelOptions> = {}) =>
    new OpenAiLanguageModel({
      baseURL: `${server.url}/v1`,
      apiKey: 'sk-test',
      model: 'gpt-4o-mini',
      maxRetries: 0,
      ...options,
    });
  const answer = (name: string, times?: number) =>
    server.route({ method: 'POST', path: PATH, body: load('openai', name), times });

  const docs: RerankDocument[] = [
    { id: 'bread', title: 'Banana bread recipe', text: 'Mash three ripe bananas and bake for an hour.' },
    { id: 'tokio', title: 'Tokio', text: 'Tokio is an asynchronous runtime for the Rust programming language.' },
    { id: 'book', title: 'Asynchronous Programming in Rust', text: 'A guide to async/await in Rust.' },
  ];
  const text = [
    'Tokio is an asynchronous runtime for the Rust programming language.',
    'It provides the building blocks needed for writing network\n  applications.',
    'It gives the flexibility to target a wide range of systems, from large servers with dozens of cores to small embedded devices.',
  ].join(' ');

  beforeAll(async () => {
    server = await ReplayServer.start();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  const sent = () =>
    server
      .requestsTo(PATH)
      .map(
        (r) => r.body as { model: string; messages: Array<{ role: string; content: string }>; response_format: any },
      );

  it('rerank: asks for a strict JSON schema with the objective and documents, maps scores in the given order', async () => {
    answer('chat-completion-rerank', 1);
    const { results, usage } = await model().rerank('asynchronous Rust runtime', docs);
    expect(results).toEqual([
      { id: 'bread', score: 0.02, relevant: false },
      { id: 'tokio', score: 0.93, relevant: true },
      { id: 'book', score: 0.71, relevant: true },
    ]);
    expect(usage).toEqual({ input: 412, output: 58 });

    const [request] = server.requestsTo(PATH);
    expect(request!.headers['authorization']).toBe('Bearer sk-test');
    const [body] = sent();
    expect(body!.model).toBe('gpt-4o-mini');
    expect(body!.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'rerank', strict: true } });
    const item = body!.response_format.json_schema.schema.properties.results.items;
    expect(item.required).toEqual(['id', 'score', 'relevant']);
    expect(item.properties.id.enum).toEqual(['bread', 'tokio', 'book']);
    const user = JSON.parse(body!.messages.find((m) => m.role === 'user')!.content);
    expect(user.objective).toBe('asynchronous Rust runtime');
    expect(user.documents.map((d: { id: string }) => d.id)).toEqual(['bread', 'tokio', 'book']);
    expect(body!.messages[0]!.role).toBe('system');
  });

  it('rerank: cuts long document text before sending it', async () => {
    answer('chat-completion-rerank', 1);
    await model({ maxDocumentChars: 10 }).rerank('x', docs);
    const user = JSON.parse(sent()[0]!.messages[1]!.content);
    expect(user.documents[1].text).toBe('Tokio is a');
  });

  it('rerank: clamps scores outside [0, 1] and ignores a repeated id', async () => {
    const completion = load('openai', 'chat-completion-rerank') as any;
    completion.choices[0].message.content = JSON.stringify({
      results: [
        { id: 'tokio', score: 1.4, relevant: true },
        { id: 'bread', score: -0.2, relevant: false },
        { id: 'book', score: 0.5, relevant: true },
        { id: 'tokio', score: 0.1, relevant: false },
      ],
    });
    server.route({ method: 'POST', path: PATH, body: completion, times: 1 });
    const { results } = await model().rerank('x', docs);
    expect(results).toEqual([
      { id: 'bread', score: 0, relevant: false },
      { id: 'tokio', score: 1, relevant: true },
      { id: 'book', score: 0.5, relevant: true },
    ]);
  });

  it('rerank: an answer that leaves documents out is an incomplete_output error', async () => {
    answer('chat-completion-rerank-incomplete', 1);
    const err = await rejection(model().rerank('asynchronous Rust runtime', docs));
    expect(err).toBeInstanceOf(LanguageModelError);
    expect(err).toMatchObject({ code: 'incomplete_output', retryable: true });
    expect(err.message).toContain('left out 1 of 3 documents (bread)');
  });

  it('excerpts: keeps verbatim passages (recovering re-wrapped whitespace), drops invented ones, trims to maxChars', async () => {
    answer('chat-completion-excerpts', 1);
    const { excerpts, usage } = await model().excerpts('what is Tokio', text, 1_000);
    expect(excerpts).toEqual([
      'Tokio is an asynchronous runtime for the Rust programming language.',
      // The model collapsed "network\n  applications": the text's own characters come back.
      'It provides the building blocks needed for writing network\n  applications.',
      'It gives the flexibility to target a wide range of systems, from large servers with dozens of cores to small embedded devices.',
    ]);
    for (const e of excerpts) expect(text.includes(e)).toBe(true);
    expect(usage).toEqual({ input: 530, output: 96 });
    const [body] = sent();
    expect(body!.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'excerpts', strict: true },
    });
    const user = JSON.parse(body!.messages[1]!.content);
    expect(user).toMatchObject({ objective: 'what is Tokio', max_chars: 1_000, text });

    answer('chat-completion-excerpts', 1);
    const short = await model().excerpts('what is Tokio', text, 150);
    // 67 + 76 chars fit in 150; the 127-char sentence does not and is skipped whole.
    expect(short.excerpts).toHaveLength(2);
    expect(short.excerpts.join('').length).toBeLessThanOrEqual(150);
  });

  it('a malformed (non-JSON) answer is a malformed_output error, not a silent fallback', async () => {
    answer('chat-completion-malformed', 1);
    const err = await rejection(model().rerank('asynchronous Rust runtime', docs));
    expect(err).toBeInstanceOf(LanguageModelError);
    expect(err).toMatchObject({ provider: 'openai', code: 'malformed_output', retryable: true });
    expect(err.message).toMatch(/^openai: the answer is not JSON: "Sure! Here are the scores/);
    expect(server.requests).toHaveLength(1);
  });

  it('accepts JSON wrapped in a ```json fence (servers that ignore response_format)', async () => {
    const completion = load('openai', 'chat-completion-rerank') as any;
    completion.choices[0].message.content = '```json\n' + completion.choices[0].message.content + '\n```';
    server.route({ method: 'POST', path: PATH, body: completion, times: 1 });
    const { results } = await model().rerank('asynchronous Rust runtime', docs);
    expect(results.map((r) => r.score)).toEqual([0.02, 0.93, 0.71]);
  });

  it('an answer cut at the token limit is truncated_output; a refusal is refused', async () => {
    const cut = load('openai', 'chat-completion-rerank') as any;
    cut.choices[0].finish_reason = 'length';
    cut.choices[0].message.content = '{"results": [{"id": "bread", "sco';
    server.route({ method: 'POST', path: PATH, body: cut, times: 1 });
    expect(await rejection(model().rerank('x', docs))).toMatchObject({ code: 'truncated_output' });

    const refusal = load('openai', 'chat-completion-rerank') as any;
    refusal.choices[0].message.content = null;
    refusal.choices[0].message.refusal = "I'm sorry, I can't help with that.";
    server.route({ method: 'POST', path: PATH, body: refusal, times: 1 });
    expect(await rejection(model().rerank('x', docs))).toMatchObject({ code: 'refused', retryable: false });
  });

  it('a 500 is retried by the client, then the answer is used', async () => {
    answer('chat-completion-rerank');
    server.failNext(1, 500, { body: load('openai', 'error-500') });
    const { results } = await model({ maxRetries: 2 }).rerank('asynchronous Rust runtime', docs);
    expect(results[1]).toEqual({ id: 'tokio', score: 0.93, relevant: true });
    expect(server.requestsTo(PATH)).toHaveLength(2);
  });

  it('a persistent 500 becomes a retryable upstream error after the client retries', async () => {
    server.failNext(2, 500, { body: load('openai', 'error-500') });
    const err = await rejection(model({ maxRetries: 1 }).rerank('asynchronous Rust runtime', docs));
    expect(err).toBeInstanceOf(LanguageModelError);
    expect(err).toMatchObject({ code: 'upstream', retryable: true });
    expect(err.message).toContain('HTTP 500');
    expect(server.requestsTo(PATH)).toHaveLength(2);
  });

  it('a 401 is not retryable', async () => {
    server.failNext(1, 401, {
      body: {
        error: {
          message: 'Incorrect API key provided: sk-test.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    });
    const err = await rejection(model({ maxRetries: 2 }).excerpts('x', text, 100));
    expect(err).toMatchObject({ code: 'upstream', retryable: false });
    expect(server.requestsTo(PATH)).toHaveLength(1);
  });

  it('times out', async () => {
    server.route({
      method: 'POST',
      path: PATH,
      body: load('openai', 'chat-completion-rerank'),
      delayMs: 1_000,
      times: 1,
    });
    const started = performance.now();
    const err = await rejection(model({ timeoutMs: 100, maxRetries: 2 }).rerank('x', docs));
    expect(err).toBeInstanceOf(LanguageModelError);
    expect(err).toMatchObject({ code: 'timeout', retryable: true, message: 'openai: no answer within 100 ms' });
    // The budget covers the client's retries too.
    expect(performance.now() - started).toBeLessThan(600);
  });

  it("rethrows the caller's abort as is", async () => {
    server.route({
      method: 'POST',
      path: PATH,
      body: load('openai', 'chat-completion-rerank'),
      delayMs: 1_000,
      times: 1,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const err = await rejection(model().rerank('x', docs, controller.signal));
    expect(err).not.toBeInstanceOf(LanguageModelError);
    expect(err.name).toBe('AbortError');
  });

  it('sends nothing for nothing to do', async () => {
    expect(await model().rerank('x', [])).toEqual({ results: [], usage: { input: 0, output: 0 } });
    expect(await model().excerpts('x', '   ', 100)).toEqual({ excerpts: [], usage: { input: 0, output: 0 } });
    expect(server.requests).toHaveLength(0);
  });
});
