/** The HTTP layer's request bodies, against the sample app: validation in pydantic's lax mode, shape and parsing. */
import { BODY_LIMIT, errorsOf, post, request, useSampleApp } from './testing/sample-app';

useSampleApp();

describe('body validation (pydantic lax mode)', () => {
  it('applies defaults, coerces a numeric string, drops unknown fields and builds DTO instances', async () => {
    const r = await post({ queries: ['a'], limit: '5', surprise: 1, filters: [{ domain: 'x.com' }] });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual({
      body: { queries: ['a'], limit: 5, depth: 'auto', filters: [{ domain: 'x.com', exclude: false }] },
      isDto: true,
      filterIsDto: true,
    });
  });

  it('reports a missing field with the whole body as input', async () => {
    expect(await errorsOf(post({ limit: 5 }))).toEqual([
      { type: 'missing', loc: ['body', 'queries'], msg: 'Field required', input: { limit: 5 } },
    ]);
  });

  it('reports too_short for an empty list', async () => {
    expect(await errorsOf(post({ queries: [] }))).toEqual([
      {
        type: 'too_short',
        loc: ['body', 'queries'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
    ]);
  });

  it('reports only too_long for an over-long list, even when items are invalid too', async () => {
    const queries = ['a', 2, '', 'd', 'e', 'f', 'g'];
    expect(await errorsOf(post({ queries }))).toEqual([
      {
        type: 'too_long',
        loc: ['body', 'queries'],
        msg: 'List should have at most 5 items after validation, not 7',
        input: queries,
        ctx: { field_type: 'List', max_length: 5, actual_length: 7 },
      },
    ]);
  });

  it('reports each bad list item at its index', async () => {
    expect(await errorsOf(post({ queries: ['a', 5, ''] }))).toEqual([
      { type: 'string_type', loc: ['body', 'queries', 1], msg: 'Input should be a valid string', input: 5 },
      {
        type: 'string_too_short',
        loc: ['body', 'queries', 2],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
    ]);
  });

  it.each([
    [0, 'greater_than_equal', 'Input should be greater than or equal to 1', { ge: 1 }],
    ['0', 'greater_than_equal', 'Input should be greater than or equal to 1', { ge: 1 }],
    [101, 'less_than_equal', 'Input should be less than or equal to 100', { le: 100 }],
  ])('reports bounds with ctx and the raw input (limit=%j)', async (limit, type, msg, ctx) => {
    expect(await errorsOf(post({ queries: ['a'], limit }))).toEqual([
      { type, loc: ['body', 'limit'], msg, input: limit, ctx },
    ]);
  });

  it.each([
    ['abc', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
    [5.5, 'int_from_float', 'Input should be a valid integer, got a number with a fractional part'],
    [null, 'int_type', 'Input should be a valid integer'],
    [[5], 'int_type', 'Input should be a valid integer'],
  ])('reports integer type errors (limit=%j)', async (limit, type, msg) => {
    expect(await errorsOf(post({ queries: ['a'], limit }))).toEqual([
      { type, loc: ['body', 'limit'], msg, input: limit },
    ]);
  });

  it('reports an enum mismatch with the expected members', async () => {
    expect(await errorsOf(post({ queries: ['a'], depth: 'slow' }))).toEqual([
      {
        type: 'enum',
        loc: ['body', 'depth'],
        msg: "Input should be 'instant', 'fast', 'auto' or 'deep'",
        input: 'slow',
        ctx: { expected: "'instant', 'fast', 'auto' or 'deep'" },
      },
    ]);
  });

  it('reports errors of several fields in declaration order, whatever the input key order', async () => {
    const detail = await errorsOf(post({ threshold: 0, depth: 'x', limit: 0, queries: [] }));
    expect(detail.map((e: { loc: unknown[] }) => e.loc[1])).toEqual(['queries', 'limit', 'depth', 'threshold']);
    expect(detail[3]).toEqual({
      type: 'greater_than',
      loc: ['body', 'threshold'],
      msg: 'Input should be greater than 0',
      input: 0,
      ctx: { gt: 0 },
    });
  });

  it('accepts null for a nullable field and rejects it for a non-nullable one', async () => {
    expect((await post({ queries: ['a'], threshold: null })).json().body.threshold).toBeNull();
    expect(await errorsOf(post({ queries: null }))).toEqual([
      { type: 'list_type', loc: ['body', 'queries'], msg: 'Input should be a valid list', input: null },
    ]);
  });

  it('validates nested models with full loc paths', async () => {
    expect(await errorsOf(post({ queries: ['a'], filters: [{ domain: '' }, 'x.com', {}] }))).toEqual([
      {
        type: 'string_too_short',
        loc: ['body', 'filters', 0, 'domain'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
      {
        type: 'model_attributes_type',
        loc: ['body', 'filters', 1],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 'x.com',
      },
      { type: 'missing', loc: ['body', 'filters', 2, 'domain'], msg: 'Field required', input: {} },
    ]);
  });

  it('validates dates, URLs and dicts', async () => {
    expect(
      await errorsOf(post({ queries: ['a'], from: '2024-02-30', callback_url: 'ftp://x.org', metadata: [1] })),
    ).toEqual([
      {
        type: 'date_parsing',
        loc: ['body', 'from'],
        msg: 'Input should be a valid date in the format YYYY-MM-DD, day value is outside expected range',
        input: '2024-02-30',
        ctx: { error: 'day value is outside expected range' },
      },
      {
        type: 'url_scheme',
        loc: ['body', 'callback_url'],
        msg: "URL scheme should be 'http' or 'https'",
        input: 'ftp://x.org',
        ctx: { expected_schemes: "'http' or 'https'" },
      },
      { type: 'dict_type', loc: ['body', 'metadata'], msg: 'Input should be a valid dictionary', input: [1] },
    ]);
    const ok = await post({
      queries: ['a'],
      from: '2024-02-29',
      callback_url: 'HTTPS://Example.com',
      metadata: { a: [1] },
    });
    expect(ok.json().body).toMatchObject({
      from: '2024-02-29',
      callback_url: 'https://example.com/',
      metadata: { a: [1] },
    });
  });
});

describe('body shape and parsing', () => {
  it('rejects a JSON array body with model_attributes_type', async () => {
    expect(await errorsOf(post([1, 2]))).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [1, 2],
      },
    ]);
  });

  it('treats a text/plain body as a string, as FastAPI does', async () => {
    const detail = await errorsOf(post('hello', { 'content-type': 'text/plain' }));
    expect(detail).toEqual([expect.objectContaining({ type: 'model_attributes_type', loc: ['body'], input: 'hello' })]);
  });

  it.each([
    ['no body', undefined, {}],
    ['an empty JSON body', '', { 'content-type': 'application/json' }],
    ['a JSON null body', 'null', { 'content-type': 'application/json' }],
  ])('reports %s as the missing body', async (_, payload, headers) => {
    expect(await errorsOf(request({ method: 'POST', url: '/search', payload, headers }))).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
  });

  it.each([
    ['{"queries": ["a",]}', 16, 'Illegal trailing comma before end of array'],
    ['{"queries": }', 12, 'Expecting value'],
    ['{"queries": ["a"]} x', 19, 'Extra data'],
    // code points, not UTF-16 units: the emoji counts once
    ['{"q": "é😀", x}', 12, 'Expecting property name enclosed in double quotes'],
  ])("answers malformed JSON %j with json_invalid at Python's position", async (payload, pos, error) => {
    expect(await errorsOf(post(payload))).toEqual([
      { type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error } },
    ]);
  });

  it('parses a body sent without Content-Type as JSON', async () => {
    const r = await request({ method: 'POST', url: '/search', payload: '{"queries":["a"]}' });
    expect(r.statusCode).toBe(201);
    expect(r.json().body.queries).toEqual(['a']);
  });

  it("answers undecodable bytes with FastAPI's 400", async () => {
    const r = await request({
      method: 'POST',
      url: '/search',
      payload: Buffer.from([0x7b, 0xff, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expect([r.statusCode, r.json()]).toEqual([400, { detail: 'There was an error parsing the body' }]);
  });

  it('drops __proto__ keys instead of passing them on', async () => {
    const r = await post('{"queries":["a"],"metadata":{"__proto__":{"polluted":1},"k":1}}');
    expect(r.json().body.metadata).toEqual({ k: 1 });
    expect(Object.getPrototypeOf(r.json().body.metadata)).toBe(Object.prototype);
  });

  it('answers an oversized body with 413 and the limit', async () => {
    const r = await post({ queries: ['x'.repeat(BODY_LIMIT)] });
    expect([r.statusCode, r.json()]).toEqual([413, { detail: `Request body too large: limit is ${BODY_LIMIT} bytes` }]);
  });

  it('answers an unsupported media type with 415', async () => {
    const r = await post('<a/>', { 'content-type': 'application/xml' });
    expect([r.statusCode, r.json()]).toEqual([415, { detail: 'Unsupported Media Type: application/xml' }]);
  });
});
