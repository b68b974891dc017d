import 'reflect-metadata';
import {
  Body,
  Controller,
  Delete,
  Get,
  InternalServerErrorException,
  Logger,
  Module,
  NotFoundException,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Conflict, Invalid, NotFound } from '@app/domain';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import {
  ApiExceptionFilter,
  BoolField,
  DateField,
  DictField,
  EnumField,
  FloatField,
  IntField,
  NestedField,
  notFound,
  PydanticValidationPipe,
  serviceUnavailable,
  StrField,
  StrListField,
  tooManyRequests,
  unauthorized,
  UrlField,
  ValidatedHeaders,
  installFastifyErrorHandling,
} from './index';

class Filter {
  @StrField({ minLength: 1 }) domain!: string;
  @BoolField({ default: false }) exclude!: boolean;
}

class SearchBody {
  @StrListField({ minItems: 1, maxItems: 5, itemMinLength: 1 }) queries!: string[];
  @IntField({ ge: 1, le: 100, default: 10 }) limit!: number;
  @EnumField(['instant', 'fast', 'auto', 'deep'], { default: 'auto' }) depth!: string;
  @DateField({ optional: true }) from?: string;
  @UrlField({ optional: true }) callback_url?: string;
  @NestedField(Filter, { list: true, optional: true }) filters?: Filter[];
  @DictField({ optional: true }) metadata?: Record<string, unknown>;
  @FloatField({ gt: 0, le: 1, optional: true, nullable: true }) threshold?: number | null;
}

class ListQuery {
  @StrField({ minLength: 1 }) q!: string;
  @IntField({ ge: 1, le: 100, default: 10 }) limit!: number;
  @DateField({ optional: true }) from?: string;
  @StrListField({ optional: true }) tag?: string[];
  @BoolField({ default: false }) archived!: boolean;
}

class TaskParams {
  @StrField({ pattern: '^t_' }) task_id!: string;
}

class TaskHeaders {
  @StrField({ alias: 'x-request-id', optional: true }) requestId?: string;
  @IntField({ alias: 'x-priority', ge: 0, default: 0 }) priority!: number;
}

@Controller()
class SampleController {
  @Post('search')
  search(@Body() body: SearchBody) {
    return { body, isDto: body instanceof SearchBody, filterIsDto: body.filters?.[0] instanceof Filter };
  }

  @Get('items')
  items(@Query() query: ListQuery) {
    return query;
  }

  @Get('tasks/:task_id')
  task(@Param() params: TaskParams, @ValidatedHeaders() headers: TaskHeaders) {
    return { params, headers };
  }

  @Delete('tasks/:task_id')
  deleteTask() {
    return {};
  }

  @Get('boom')
  boom() {
    throw new Error('db password is hunter2');
  }

  @Get('nest-500')
  nest500() {
    throw new InternalServerErrorException('pool exhausted at 10.0.0.7');
  }

  @Get('nest-404')
  nest404() {
    throw new NotFoundException('Task t_9 not found');
  }

  @Get('api-404')
  api404() {
    throw notFound('Monitor not found');
  }

  @Get('domain-404')
  domain404() {
    throw new NotFound('run r_9 does not exist');
  }

  @Get('domain-409')
  domain409() {
    throw new Conflict('the run is already cancelled');
  }

  @Get('domain-422')
  domain422() {
    throw new Invalid('cadence must be at least 1 hour');
  }

  @Get('limited')
  limited() {
    throw tooManyRequests(1.2, { 'RateLimit-Policy': '5;w=1' });
  }

  @Get('busy')
  busy() {
    throw serviceUnavailable(30);
  }

  @Get('private')
  private() {
    throw unauthorized();
  }
}

@Module({ controllers: [SampleController] })
class SampleModule {}

const BODY_LIMIT = 1024;
let app: NestFastifyApplication;

type Res = { statusCode: number; headers: Record<string, unknown>; json: () => any; body: string };
const request = (opts: { method: string; url: string; payload?: unknown; headers?: Record<string, string> }) =>
  app.getHttpAdapter().getInstance().inject(opts as never) as unknown as Promise<Res>;
const post = (payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  request({ method: 'POST', url: '/search', payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers });
const get = (url: string, headers?: Record<string, string>) => request({ method: 'GET', url, headers });

/** Expects a 422 and returns its detail list. */
async function errorsOf(res: Promise<Res>) {
  const r = await res;
  expect(r.statusCode).toBe(422);
  expect(r.headers['content-type']).toBe('application/json');
  return r.json().detail;
}

beforeAll(async () => {
  app = await NestFactory.create<NestFastifyApplication>(SampleModule, new FastifyAdapter({ bodyLimit: BODY_LIMIT }), {
    logger: false,
  });
  installFastifyErrorHandling(app);
  app.useGlobalPipes(new PydanticValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
});

afterAll(() => app.close());
afterEach(() => jest.restoreAllMocks());

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
    expect(await errorsOf(post({ queries: ['a'], limit }))).toEqual([{ type, loc: ['body', 'limit'], msg, input: limit, ctx }]);
  });

  it.each([
    ['abc', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
    [5.5, 'int_from_float', 'Input should be a valid integer, got a number with a fractional part'],
    [null, 'int_type', 'Input should be a valid integer'],
    [[5], 'int_type', 'Input should be a valid integer'],
  ])('reports integer type errors (limit=%j)', async (limit, type, msg) => {
    expect(await errorsOf(post({ queries: ['a'], limit }))).toEqual([{ type, loc: ['body', 'limit'], msg, input: limit }]);
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
    expect(await errorsOf(post({ queries: ['a'], from: '2024-02-30', callback_url: 'ftp://x.org', metadata: [1] }))).toEqual([
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
    const ok = await post({ queries: ['a'], from: '2024-02-29', callback_url: 'HTTPS://Example.com', metadata: { a: [1] } });
    expect(ok.json().body).toMatchObject({ from: '2024-02-29', callback_url: 'https://example.com/', metadata: { a: [1] } });
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
  ])('answers malformed JSON %j with json_invalid at Python\'s position', async (payload, pos, error) => {
    expect(await errorsOf(post(payload))).toEqual([
      { type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error } },
    ]);
  });

  it('parses a body sent without Content-Type as JSON', async () => {
    const r = await request({ method: 'POST', url: '/search', payload: '{"queries":["a"]}' });
    expect(r.statusCode).toBe(201);
    expect(r.json().body.queries).toEqual(['a']);
  });

  it('answers undecodable bytes with FastAPI\'s 400', async () => {
    const r = await request({ method: 'POST', url: '/search', payload: Buffer.from([0x7b, 0xff, 0x7d]), headers: { 'content-type': 'application/json' } });
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

describe('query, path and header parameters', () => {
  it('parses query strings laxly, repeated params into lists, with defaults', async () => {
    const r = await get('/items?q=x&limit=5&tag=a&tag=b&archived=yes&other=1');
    expect([r.statusCode, r.json()]).toEqual([200, { q: 'x', limit: 5, tag: ['a', 'b'], archived: true }]);
    expect((await get('/items?q=x&tag=a')).json()).toEqual({ q: 'x', limit: 10, tag: ['a'], archived: false });
  });

  it('reports a bad date as date_parsing at ["query","from"]', async () => {
    expect(await errorsOf(get('/items?q=x&from=yesterday'))).toEqual([
      {
        type: 'date_parsing',
        loc: ['query', 'from'],
        msg: 'Input should be a valid date in the format YYYY-MM-DD, input is too short',
        input: 'yesterday',
        ctx: { error: 'input is too short' },
      },
    ]);
  });

  it('reports missing query params with input null and the last of repeated scalars', async () => {
    expect(await errorsOf(get('/items?limit=1&limit=500&archived=maybe'))).toEqual([
      { type: 'missing', loc: ['query', 'q'], msg: 'Field required', input: null },
      { type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', input: '500', ctx: { le: 100 } },
      { type: 'bool_parsing', loc: ['query', 'archived'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' },
    ]);
  });

  it('validates path params and headers with their own loc prefix', async () => {
    const okRes = await get('/tasks/t_1', { 'x-priority': '2', 'x-request-id': 'r1' });
    expect(okRes.json()).toEqual({ params: { task_id: 't_1' }, headers: { requestId: 'r1', priority: 2 } });
    expect(await errorsOf(get('/tasks/x_1'))).toEqual([
      {
        type: 'string_pattern_mismatch',
        loc: ['path', 'task_id'],
        msg: "String should match pattern '^t_'",
        input: 'x_1',
        ctx: { pattern: '^t_' },
      },
    ]);
    expect(await errorsOf(get('/tasks/t_1', { 'x-priority': 'high' }))).toEqual([
      {
        type: 'int_parsing',
        loc: ['header', 'x-priority'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'high',
      },
    ]);
  });
});

describe('other errors', () => {
  it('answers unknown routes like FastAPI: 404 Not Found', async () => {
    const r = await get('/nope');
    expect([r.statusCode, r.json()]).toEqual([404, { detail: 'Not Found' }]);
  });

  it.each([
    ['PUT', '/search', 'POST'],
    ['PATCH', '/tasks/t_1', 'GET, HEAD'],
  ])('answers %s %s on a known path with 405 and Allow', async (method, url, allow) => {
    const r = await request({ method, url });
    expect([r.statusCode, r.json(), r.headers.allow]).toEqual([405, { detail: 'Method Not Allowed' }, allow]);
  });

  it.each([
    ['POST', '/nope', 'application/json', 404],
    ['PUT', '/search', 'application/json', 405],
    ['POST', '/nope', 'application/xml', 404],
  ])('does not read the body of %s %s (%s): %d', async (method, url, type, status) => {
    const r = await request({ method, url, payload: '{"broken": ', headers: { 'content-type': type } });
    expect(r.statusCode).toBe(status);
  });

  it('hides the message of an unexpected error and logs it without headers', async () => {
    const log = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const r = await get('/boom?api_key=k', { authorization: 'Bearer wr_secret' });
    expect([r.statusCode, r.body]).toEqual([500, '{"detail":"Internal Server Error"}']);
    expect(log).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(log.mock.calls);
    expect(logged).toContain('GET /boom failed: db password is hunter2');
    expect(logged).not.toContain('wr_secret');
    expect(logged).not.toContain('api_key');
  });

  it('hides the message of a Nest 5xx exception too', async () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const r = await get('/nest-500');
    expect([r.statusCode, r.json()]).toEqual([500, { detail: 'Internal Server Error' }]);
  });

  it.each([
    ['/nest-404', 404, { detail: 'Task t_9 not found' }, {}],
    ['/api-404', 404, { detail: 'Monitor not found' }, {}],
    ['/domain-404', 404, { detail: 'run r_9 does not exist' }, {}],
    ['/domain-409', 409, { detail: 'the run is already cancelled' }, {}],
    ['/domain-422', 422, { detail: 'cadence must be at least 1 hour' }, {}],
    ['/limited', 429, { detail: 'Too Many Requests' }, { 'retry-after': '2', 'ratelimit-policy': '5;w=1' }],
    ['/busy', 503, { detail: 'Service Unavailable' }, { 'retry-after': '30' }],
    ['/private', 401, { detail: 'Not authenticated' }, { 'www-authenticate': 'Bearer' }],
  ])('answers %s with its status, detail and headers', async (url, status, body, headers) => {
    const r = await get(url);
    expect([r.statusCode, r.json()]).toEqual([status, body]);
    expect(r.headers).toMatchObject(headers);
  });
});

describe('OpenAPI', () => {
  it('is generated from the same field declarations', () => {
    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    const schema = doc.components!.schemas!.SearchBody as Record<string, any>;
    expect(schema.required).toEqual(['queries']);
    expect(schema.properties.queries).toEqual({ type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 5 });
    expect(schema.properties.limit).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(schema.properties.depth).toMatchObject({ type: 'string', enum: ['instant', 'fast', 'auto', 'deep'], default: 'auto' });
    expect(schema.properties.from).toEqual({ type: 'string', format: 'date' });
    expect(schema.properties.threshold).toMatchObject({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, nullable: true });
    expect(schema.properties.filters).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Filter' } });
    const params = doc.paths['/items'].get!.parameters as Array<Record<string, any>>;
    expect(params.find((p) => p.name === 'limit')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } });
    expect(params.find((p) => p.name === 'q')).toMatchObject({ in: 'query', required: true });
  });
});
