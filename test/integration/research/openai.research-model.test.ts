import type { Finding } from '@app/domain/search-run/search-run.events';
import { LanguageModelError } from '@app/language';
import { OpenAiResearchModel, type OpenAiResearchModelOptions } from '@app/language';
import { citedIndexes, uncitedClaims } from '@app/research';
import type { ResearchPassage } from '@app/research';
import { ReplayServer } from '../../support/replay-server';
import { load, rejection } from '../providers/recorded';

/**
 * The OpenAI research model through the official client against a loopback server speaking Chat
 * Completions (recorded completion objects): the requests are real, and so are the checks applied
 * to what a model answers (verbatim quotes, resolvable citations).
 */
describe('OpenAiResearchModel (loopback Chat Completions server)', () => {
  const PATH = '/v1/chat/completions';
  let server: ReplayServer;
  const model = (options: Partial<OpenAiResearchModelOptions> = {}) =>
    new OpenAiResearchModel({
      baseURL: `${server.url}/v1`,
      apiKey: 'sk-test',
      model: 'gpt-4o-mini',
      maxRetries: 0,
      ...options,
    });
  const answer = (name: string, times = 1) =>
    server.route({ method: 'POST', path: PATH, body: load('openai-research', name), times });
  const sent = () =>
    server
      .requestsTo(PATH)
      .map(
        (r) => r.body as { model: string; messages: Array<{ role: string; content: string }>; response_format: any },
      );
  const userPayload = (i = 0) => JSON.parse(sent()[i]!.messages.find((m) => m.role === 'user')!.content);

  const passages: ResearchPassage[] = [
    {
      source: 1,
      url: 'https://recycle.example.org/ev',
      title: 'How EV batteries are recycled',
      text: 'Electric vehicle batteries are recycled by shredding the cells into black mass. Plants recover lithium.',
    },
    {
      source: 2,
      url: 'https://wiki.example.net/Battery_recycling',
      title: 'Battery recycling',
      text: 'Lithium-ion batteries are recycled with “hydrometallurgical”\n  processes. They are sorted first.',
    },
    {
      source: 3,
      url: 'https://bread.example.org/sourdough',
      title: 'Sourdough',
      text: 'A sourdough starter is flour and water.',
    },
  ];
  const sources = passages.map((p) => ({ index: p.source, url: p.url, title: p.title }));
  const findings: Finding[] = [
    {
      subquery: 'How are EV batteries recycled',
      answer: 'Shredded into black mass.',
      citations: [1, 2],
      confidence: 'high',
      evidence: [
        { source: 1, quote: 'Electric vehicle batteries are recycled by shredding the cells into black mass.' },
        { source: 2, quote: 'Lithium-ion batteries are recycled with “hydrometallurgical”\n  processes.' },
      ],
    },
  ];

  beforeAll(async () => {
    server = await ReplayServer.start();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it('plan: strict json_schema request; given queries first, repeats dropped, capped', async () => {
    answer('chat-completion-plan');
    const { subqueries, usage } = await model().plan(
      'How are EV batteries recycled, and at what cost?',
      ['EV battery recycling'],
      4,
    );
    expect(subqueries).toEqual([
      'EV battery recycling',
      'lithium recovery hydrometallurgy',
      'battery recycling cost Europe',
      'recycling plant capacity Europe',
    ]);
    expect(usage).toEqual({ input: 188, output: 41 });
    const [body] = sent();
    expect(body!.model).toBe('gpt-4o-mini');
    expect(body!.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'plan', strict: true } });
    expect(body!.response_format.json_schema.schema).toMatchObject({
      additionalProperties: false,
      required: ['subqueries'],
    });
    expect(userPayload()).toEqual({
      prompt: 'How are EV batteries recycled, and at what cost?',
      queries: ['EV battery recycling'],
      max_subqueries: 3,
    });
  });

  it('plan: no call when the given queries already fill the plan', async () => {
    expect((await model().plan('anything', ['a b', 'c d', 'e f'], 2)).subqueries).toEqual(['a b', 'c d']);
    expect(server.requests).toHaveLength(0);
  });

  it('grade: keeps verbatim quotes (as the passage wrote them), drops invented and misattributed ones', async () => {
    answer('chat-completion-grade');
    const { finding, usage } = await model().grade('How are EV batteries recycled', passages);
    expect(usage).toEqual({ input: 905, output: 133 });
    expect(finding).toEqual({
      subquery: 'How are EV batteries recycled',
      answer:
        'EV batteries are shredded into black mass, from which hydrometallurgical plants recover lithium, nickel and cobalt.',
      citations: [1, 2],
      // The model said high, but invented quotes cost it a step.
      confidence: 'medium',
      evidence: [
        { source: 1, quote: 'Electric vehicle batteries are recycled by shredding the cells into black mass.' },
        { source: 2, quote: 'Lithium-ion batteries are recycled with “hydrometallurgical”\n  processes.' },
      ],
    });
    for (const e of finding!.evidence) expect(passages.find((p) => p.source === e.source)!.text).toContain(e.quote);

    const [body] = sent();
    expect(body!.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'grade', strict: true } });
    const schema = body!.response_format.json_schema.schema;
    expect(schema.required).toEqual(['answerable', 'answer', 'confidence', 'evidence']);
    expect(schema.properties.evidence.items.properties.source.enum).toEqual([1, 2, 3]);
    expect(userPayload().passages.map((p: { source: number }) => p.source)).toEqual([1, 2, 3]);
  });

  it('grade: cuts long passages before sending them', async () => {
    answer('chat-completion-grade');
    await model({ maxPassageChars: 12 }).grade('q', passages);
    expect(userPayload().passages[0].text).toBe('Electric veh');
  });

  it('grade: no finding when the model says unanswerable or every quote is invented', async () => {
    answer('chat-completion-grade-unanswerable');
    expect((await model().grade('q', passages)).finding).toBeNull();
    answer('chat-completion-grade-invented');
    const invented = await model().grade('q', passages);
    expect(invented.finding).toBeNull();
    expect(invented.usage).toEqual({ input: 640, output: 40 });
    expect(await model().grade('q', [])).toEqual({ finding: null, usage: { input: 0, output: 0 } });
    expect(server.requests).toHaveLength(2);
  });

  it('followUp: strict request; keeps follow-ups whose quote is verbatim in the source named, once each, capped', async () => {
    // A completion object in the recorded ones' shape, written for this contract (no server to record a follow-up call against here).
    answer('chat-completion-follow-up');
    const chain: ResearchPassage[] = [
      {
        source: 1,
        url: 'https://brightwater.test/team',
        title: 'Our team',
        text: 'Our chief executive, Dana Whitcombe, joined in 2015.',
      },
      { source: 2, url: 'https://brightwater.test/board', title: 'Board', text: 'The board meets quarterly.' },
    ];
    const { followUps, usage } = await model().followUp(
      'Where did the chief executive of Brightwater Foods study?',
      chain,
      3,
    );
    expect(usage).toEqual({ input: 410, output: 64 });
    // The repeat is dropped; "Marta Kivi chairs the board." is not in source 2: an invented lead is dropped.
    expect(followUps).toEqual([
      {
        subquery: 'Where did Dana Whitcombe study?',
        restates: true,
        via: { source: 1, quote: 'Our chief executive, Dana Whitcombe, joined in 2015.' },
      },
    ]);
    const [body] = sent();
    expect(body!.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'follow_up', strict: true },
    });
    expect(body!.response_format.json_schema.schema.properties.follow_ups.items.properties.source.enum).toEqual([1, 2]);
    expect(userPayload()).toMatchObject({
      question: 'Where did the chief executive of Brightwater Foods study?',
      max_follow_ups: 3,
    });
  });

  it('followUp: no call with no room or no passages', async () => {
    expect((await model().followUp('q', passages, 0)).followUps).toEqual([]);
    expect((await model().followUp('q', [], 2)).followUps).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('synthesise: strips citations of unknown sources, drops uncited claims, appends the real sources list', async () => {
    answer('chat-completion-report');
    const { report, usage } = await model().synthesise('How are EV batteries recycled?', findings, sources, {
      subqueries: ['How are EV batteries recycled', 'What does recycling cost'],
    });
    expect(usage).toEqual({ input: 1210, output: 260 });
    expect(report).toBe(
      [
        '# How are EV batteries recycled?',
        '',
        'EV batteries are shredded into black mass and their metals recovered [1][2].',
        '',
        '## How are EV batteries recycled',
        '',
        'Cells are shredded into black mass [1]. Hydrometallurgy then recovers lithium, nickel and cobalt [2].',
        '',
        '## What does recycling cost',
        '',
        'No source answered: What does recycling cost',
        '',
        '## Sources',
        '',
        '[1] How EV batteries are recycled — https://recycle.example.org/ev',
        '[2] Battery recycling — https://wiki.example.net/Battery_recycling',
        '',
      ].join('\n'),
    );
    expect(uncitedClaims(report)).toEqual([]);
    expect(citedIndexes(report)).toEqual([1, 2]);

    const [body] = sent();
    expect(body!.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'report', strict: true } });
    expect(userPayload()).toMatchObject({
      prompt: 'How are EV batteries recycled?',
      subqueries: ['How are EV batteries recycled', 'What does recycling cost'],
      sources: sources.map((s) => ({ index: s.index, title: s.title, url: s.url })),
    });
    expect(userPayload().findings[0].evidence).toEqual(findings[0]!.evidence);
  });

  it('synthesise: a report citing no real source is malformed_output; no findings means no call', async () => {
    answer('chat-completion-report-uncited');
    const err = await rejection(model().synthesise('EV batteries', findings, sources));
    expect(err).toBeInstanceOf(LanguageModelError);
    expect(err).toMatchObject({
      code: 'malformed_output',
      retryable: true,
      message: 'openai: the report cites none of the given sources',
    });

    const empty = await model().synthesise('EV batteries', [], sources, { subqueries: ['a b'] });
    expect(empty.usage).toEqual({ input: 0, output: 0 });
    expect(empty.report).toContain('No source answered: a b');
    expect(server.requests).toHaveLength(1);
  });

  it('maps failures to LanguageModelError: non-JSON, wrong shape, HTTP 500', async () => {
    server.route({ method: 'POST', path: PATH, body: load('openai', 'chat-completion-malformed'), times: 1 });
    expect(await rejection(model().grade('q', passages))).toMatchObject({ code: 'malformed_output' });

    const wrong = load('openai-research', 'chat-completion-grade') as any;
    wrong.choices[0].message.content = JSON.stringify({
      answerable: true,
      answer: 'x',
      confidence: 'certain',
      evidence: [],
    });
    server.route({ method: 'POST', path: PATH, body: wrong, times: 1 });
    expect(await rejection(model().grade('q', passages))).toMatchObject({ code: 'malformed_output' });

    server.failNext(1, 500, { body: load('openai', 'error-500') });
    const err = await rejection(model().plan('prompt words', [], 3));
    expect(err).toBeInstanceOf(LanguageModelError);
    expect(err).toMatchObject({ code: 'upstream', retryable: true });
  });

  it('times out within its budget', async () => {
    server.route({
      method: 'POST',
      path: PATH,
      body: load('openai-research', 'chat-completion-plan'),
      delayMs: 1_000,
      times: 1,
    });
    const err = await rejection(model({ timeoutMs: 100 }).plan('prompt words', [], 3));
    expect(err).toMatchObject({ code: 'timeout', message: 'openai: no answer within 100 ms' });
  });
});
