import { LanguageModelError } from '@app/language';
import { OpenAiLanguageModel } from '@app/language';
import { ReplayServer } from '../../support/replay-server';
import { load, rejection } from './recorded';

/**
 * Schema filling through the official client against a loopback Chat Completions server: the
 * answer is checked against the schema (nulls allowed), an invalid one is asked for once more,
 * and quotes that are not verbatim in the page they name are dropped.
 */
describe('OpenAiLanguageModel.fillSchema (loopback Chat Completions server)', () => {
  const PATH = '/v1/chat/completions';
  let server: ReplayServer;
  const model = () =>
    new OpenAiLanguageModel({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini', maxRetries: 0 });
  const completion = (content: unknown) => {
    const recorded = load('openai', 'chat-completion-excerpts') as { choices: { message: { content: string } }[] };
    recorded.choices[0]!.message.content = JSON.stringify(content);
    return recorded;
  };
  const schema = {
    type: 'object',
    properties: { founded_year: { type: 'integer' }, headquarters: { type: 'string' }, ceo: { type: 'string' } },
    required: ['founded_year', 'headquarters', 'ceo'],
  };
  const documents = [
    {
      url: 'https://northwind.example/about',
      title: 'About Northwind',
      text: 'Northwind was founded in 1987 in Tampere.\nIts CEO is Ines Varga.',
    },
  ];
  const request = { task: 'Northwind company facts', schema, documents };

  beforeAll(async () => {
    server = await ReplayServer.start();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it('returns the output with each field’s basis; a quote not on the page is dropped and its field is low confidence', async () => {
    server.route({
      method: 'POST',
      path: PATH,
      times: 1,
      body: completion({
        output: { founded_year: 1987, headquarters: 'Tampere', ceo: 'Ines Varga' },
        basis: [
          {
            field: 'founded_year',
            citations: [{ document: 0, excerpt: 'Northwind was founded in 1987  in Tampere.' }],
            reasoning: 'stated',
            confidence: 'high',
          },
          {
            field: 'headquarters',
            citations: [{ document: 0, excerpt: 'Northwind is headquartered in Tampere.' }],
            reasoning: 'inferred',
            confidence: 'high',
          },
          {
            field: 'ceo',
            citations: [
              { document: 3, excerpt: 'Its CEO is Ines Varga.' },
              { document: 0, excerpt: 'Its CEO is Ines Varga.' },
            ],
            reasoning: 'stated',
            confidence: 'medium',
          },
        ],
      }),
    });
    const result = await model().fillSchema(request);
    expect(result.output).toEqual({ founded_year: 1987, headquarters: 'Tampere', ceo: 'Ines Varga' });
    expect(result.basis).toEqual([
      {
        field: 'founded_year',
        citations: [
          { url: documents[0]!.url, title: 'About Northwind', excerpts: ['Northwind was founded in 1987 in Tampere.'] },
        ],
        reasoning: 'stated',
        confidence: 'high',
      },
      {
        field: 'headquarters',
        citations: [],
        reasoning: expect.stringContaining('no verbatim quote'),
        confidence: 'low',
      },
      {
        field: 'ceo',
        citations: [{ url: documents[0]!.url, title: 'About Northwind', excerpts: ['Its CEO is Ines Varga.'] }],
        reasoning: 'stated',
        confidence: 'medium',
      },
    ]);
    const sent = server.requestsTo(PATH)[0]!.body as {
      response_format: { json_schema: { strict: boolean; schema: { properties: { output: unknown } } } };
    };
    expect(sent.response_format.json_schema.strict).toBe(false);
    expect(sent.response_format.json_schema.schema.properties.output).toMatchObject({
      anyOf: [expect.objectContaining({ type: 'object' }), { type: 'null' }],
    });
  });

  it('asks once more when the answer does not fit the schema, saying what was wrong', async () => {
    // Routes are tried newest first: the invalid answer comes first.
    server.route({
      method: 'POST',
      path: PATH,
      times: 1,
      body: completion({ output: { founded_year: 1987, headquarters: null, ceo: null }, basis: [] }),
    });
    server.route({
      method: 'POST',
      path: PATH,
      times: 1,
      body: completion({ output: { founded_year: 'nineteen eighty-seven', headquarters: null, ceo: null }, basis: [] }),
    });
    const result = await model().fillSchema(request);
    expect(result.output).toEqual({ founded_year: 1987, headquarters: null, ceo: null });
    expect(result.basis.map((b) => b.confidence)).toEqual(['low', 'low', 'low']);
    const bodies = server
      .requestsTo(PATH)
      .map((r) => JSON.parse((r.body as { messages: { content: string }[] }).messages[1]!.content));
    expect(bodies).toHaveLength(2);
    expect(bodies[1].previous_answer_problems.join(' ')).toMatch(/founded_year/);
  });

  it('fails with a malformed_output error when the second answer does not fit either', async () => {
    server.route({
      method: 'POST',
      path: PATH,
      times: 2,
      body: completion({ output: { founded_year: 'unknown' }, basis: [] }),
    });
    const error = await rejection(model().fillSchema(request));
    expect(error).toBeInstanceOf(LanguageModelError);
    expect(error.code).toBe('malformed_output');
    expect(server.requestsTo(PATH)).toHaveLength(2);
  });
});
