import OpenAI from 'openai';
import { bearer } from '../support/service-process';
import { type E2eContext, json } from './harness';

type Researched = {
  citations: string[];
  search_results: { url: string; title: string; snippet: string; domain: string }[];
  credits: number;
  usage_items: { sku: string; quantity: number; credits: number }[];
};

/** Chat completions through the official `openai` client, unchanged but for baseURL and key. */
export function chatSuite(ctx: E2eContext): void {
  describe('chat completions (official openai client)', () => {
    const client = () => new OpenAI({ baseURL: `${ctx.svc.baseUrl}/v1`, apiKey: ctx.svc.demoKey, maxRetries: 0 });

    it('lists and retrieves the models in OpenAI shape (base, core, ultra); an unknown model is a 404', async () => {
      const models = [];
      for await (const model of client().models.list()) models.push(model);
      expect(models.map((m) => m.id)).toEqual(['base', 'core', 'ultra']);
      for (const m of models)
        expect(m).toMatchObject({ object: 'model', created: expect.any(Number), owned_by: 'web-research' });
      expect(await client().models.retrieve('core')).toMatchObject({ id: 'core', object: 'model' });
      const unknown = await fetch(`${ctx.svc.baseUrl}/v1/models/gpt-4`, { headers: bearer(ctx.svc.demoKey) });
      expect(unknown.status).toBe(404);
      expect((await fetch(`${ctx.svc.baseUrl}/v1/models`)).status).toBe(401);
    });

    it('answers a completion 200, as OpenAI does (not 201)', async () => {
      const response = await fetch(`${ctx.svc.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: 'base',
          messages: [{ role: 'user', content: 'When was Acme Robotics founded?' }],
        }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { object: string }).object).toBe('chat.completion');
    });

    it('answers from web research with citations and search results, charged per research step', async () => {
      const completion = await client().chat.completions.create({
        model: 'core',
        messages: [{ role: 'user', content: 'Who founded Acme Robotics, and when?' }],
      });
      const answer = completion.choices[0]!.message.content!;
      expect(completion.object).toBe('chat.completion');
      expect(completion.model).toBe('core');
      expect(completion.choices[0]!.finish_reason).toBe('stop');
      expect(answer).toMatch(/2014/);
      expect(answer).toMatch(/Lena Okonkwo/);
      const researched = completion as unknown as Researched;
      const cited = [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(cited.length).toBeGreaterThan(0);
      for (const n of cited) expect(researched.citations[n - 1]).toMatch(/^https?:\/\//);
      expect(researched.search_results.length).toBeGreaterThan(0);
      expect(researched.search_results[0]).toMatchObject({
        url: expect.any(String),
        title: expect.any(String),
        snippet: expect.any(String),
        domain: expect.any(String),
      });
      expect(completion.usage!.total_tokens).toBe(
        completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
      );
      expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
      expect(researched.usage_items).toHaveLength(1);
      expect(researched.usage_items[0]!.sku).toBe('sku_chat_step');
      expect(researched.credits).toBe(researched.usage_items[0]!.credits);
      const history = await json(
        await fetch(`${ctx.svc.baseUrl}/v1/chat/completions/${completion.id}/history`, {
          headers: bearer(ctx.svc.demoKey),
        }),
      );
      const types = (history.events as { type: string }[]).map((e) => e.type);
      expect(types[0]).toBe('ChatRunRequested');
      expect(types).toEqual(
        expect.arrayContaining([
          'ChatRunStarted',
          'ChatAnswerChunk',
          'ChatAnswered',
          'CreditsCharged',
          'ChatRunCompleted',
        ]),
      );
    });

    it('streams chat.completion.chunk frames as the answer is written, the last carrying citations, usage and credits', async () => {
      const stream = await client().chat.completions.create({
        model: 'base',
        messages: [{ role: 'user', content: 'What does the Acme Robotics Rotterdam hub do?' }],
        stream: true,
      });
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(2);
      expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
      for (const chunk of chunks) expect(chunk.object).toBe('chat.completion.chunk');
      const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
      expect(text).toMatch(/Rotterdam/);
      expect(text).toMatch(/\[\d+\]/);
      const last = chunks[chunks.length - 1]! as OpenAI.Chat.Completions.ChatCompletionChunk & Researched;
      expect(last.choices[0]!.finish_reason).toBe('stop');
      expect(last.citations.length).toBeGreaterThan(0);
      expect(last.search_results.length).toBeGreaterThan(0);
      expect(last.usage!.total_tokens).toBeGreaterThan(0);
      expect(last.usage_items[0]!.sku).toBe('sku_chat_step');
      expect(last.usage_items[0]!.quantity).toBeLessThanOrEqual(4);
      const stored = await client().chat.completions.retrieve(chunks[0]!.id);
      expect(stored.choices[0]!.message.content).toBe(text);
    });

    it('with stream_options.include_usage, a last chunk carries the usage and no choices, as OpenAI sends it', async () => {
      const stream = await client().chat.completions.create({
        model: 'base',
        messages: [{ role: 'user', content: 'When was Acme Robotics founded?' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const last = chunks[chunks.length - 1]!;
      expect(last.choices).toEqual([]);
      expect(last.usage).toMatchObject({
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      });
      expect(chunks[chunks.length - 2]!.choices[0]!.finish_reason).toBe('stop');
    });

    it('an earlier message gives a follow-up its subject', async () => {
      const completion = await client().chat.completions.create({
        model: 'core',
        messages: [
          { role: 'system', content: 'Answer with sources.' },
          { role: 'user', content: 'Tell me about HelioGrid.' },
          { role: 'assistant', content: 'HelioGrid is a renewable energy company.' },
          { role: 'user', content: 'Where is its battery plant?' },
        ],
      });
      expect(completion.choices[0]!.message.content).toMatch(/Valencia/);
    });

    it('max_tokens cuts the answer with finish_reason length; response_format json_schema answers JSON', async () => {
      const short = await client().chat.completions.create({
        model: 'core',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Who founded Acme Robotics?' }],
      });
      expect(short.choices[0]!.finish_reason).toBe('length');
      expect(short.choices[0]!.message.content!.length).toBeLessThanOrEqual(40);
      const structured = await client().chat.completions.create({
        model: 'core',
        messages: [{ role: 'user', content: 'Company profile of Acme Robotics' }],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'profile',
            schema: {
              type: 'object',
              properties: {
                founded_year: { type: 'integer', description: 'Year the company was founded' },
                employees: { type: 'integer', description: 'Number of employees' },
              },
            },
          },
        },
      });
      expect(JSON.parse(structured.choices[0]!.message.content!)).toEqual({ founded_year: 2014, employees: 620 });
    });

    it('refuses a conversation without a user message with a 422 naming the field', async () => {
      const error = await client()
        .chat.completions.create({ model: 'core', messages: [{ role: 'system', content: 'You are helpful.' }] })
        .then(
          () => undefined,
          (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
        );
      expect(error?.status).toBe(422);
      const response = await fetch(`${ctx.svc.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'core', messages: [] }),
      });
      expect((await json(response)).detail[0]).toMatchObject({ type: 'too_short', loc: ['body', 'messages'] });
    });

    it('refuses a malformed stream_options with a 422 naming the field, and still answers', async () => {
      const post = (stream_options: unknown) =>
        fetch(`${ctx.svc.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' },
          body: JSON.stringify({
            model: 'base',
            stream: true,
            stream_options,
            messages: [{ role: 'user', content: 'When was Acme Robotics founded?' }],
          }),
        });
      const notObject = await post('yes');
      expect(notObject.status).toBe(422);
      expect((await json(notObject)).detail[0]).toMatchObject({ type: 'dict_type', loc: ['body', 'stream_options'] });
      const deep = await post({ include_usage: { nested: [[[[[[['x']]]]]]] } });
      expect(deep.status).toBe(422);
      expect((await json(deep)).detail[0]).toMatchObject({
        type: 'bool_type',
        loc: ['body', 'stream_options', 'include_usage'],
      });
      const huge = await post(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])));
      expect(huge.status).toBe(200);
      await huge.text();
      expect((await fetch(`${ctx.svc.baseUrl}/healthz`)).status).toBe(200);
    });
  });
}
