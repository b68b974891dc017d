import 'reflect-metadata';
import { Body, Controller, Module, Post } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiExceptionFilter, installFastifyErrorHandling, IntField, PydanticValidationPipe } from './index';

class Item {
  @IntField() n!: number;
}

@Controller()
class ItemController {
  @Post('items')
  create(@Body() item: Item) {
    return item;
  }
}

@Module({ controllers: [ItemController] })
class ItemModule {}

/** The pipe and filter registered through DI instead of useGlobal*(). */
@Module({
  controllers: [ItemController],
  providers: [
    { provide: APP_PIPE, useClass: PydanticValidationPipe },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
})
class ItemModuleWithProviders {}

async function makeApp(install: 'none' | 'fastify-instance') {
  const module = install === 'none' ? ItemModule : ItemModuleWithProviders;
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter({ bodyLimit: 64 }), {
    logger: false,
  });
  if (install === 'fastify-instance') installFastifyErrorHandling(app.getHttpAdapter().getInstance());
  else {
    app.useGlobalPipes(new PydanticValidationPipe());
    app.useGlobalFilters(new ApiExceptionFilter());
  }
  await app.init();
  return app;
}

const send = async (
  app: NestFastifyApplication,
  method: string,
  payload?: string,
  contentType = 'application/json',
) => {
  const r = await app
    .getHttpAdapter()
    .getInstance()
    .inject({ method: method as 'POST', url: '/items', payload, headers: { 'content-type': contentType } });
  return [r.statusCode, r.json()];
};

describe('without installFastifyErrorHandling: Fastify parser errors still reach the filter (rewrapped by Nest)', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => (app = await makeApp('none')));
  afterAll(() => app.close());

  it('maps malformed JSON to json_invalid, without Python position (Fastify keeps none)', async () => {
    expect(await send(app, 'POST', '{"n": }')).toEqual([
      422,
      {
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', 0],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: 'Expecting value' },
          },
        ],
      },
    ]);
  });

  it('maps an empty JSON body to the missing body', async () => {
    expect(await send(app, 'POST', '')).toEqual([
      422,
      { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] },
    ]);
  });

  it("maps Fastify's 413 and 415", async () => {
    expect(await send(app, 'POST', JSON.stringify({ n: 'x'.repeat(100) }))).toEqual([
      413,
      { detail: 'Request body too large: limit is 64 bytes' },
    ]);
    expect(await send(app, 'POST', '<n/>', 'application/xml')).toEqual([
      415,
      { detail: 'Unsupported Media Type: application/xml' },
    ]);
  });

  it('cannot tell 405 from 404 without the route table', async () => {
    expect(await send(app, 'PUT')).toEqual([404, { detail: 'Not Found' }]);
  });
});

describe('installFastifyErrorHandling(fastifyInstance) before init, pipe and filter as APP_* providers', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => (app = await makeApp('fastify-instance')));
  afterAll(() => app.close());

  it("replaces the JSON parser Nest registers at init, giving Python's position", async () => {
    expect(await send(app, 'POST', '{"n": }')).toEqual([
      422,
      {
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', 6],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: 'Expecting value' },
          },
        ],
      },
    ]);
    expect(await send(app, 'POST', '{"n": "7"}')).toEqual([201, { n: 7 }]);
  });

  it('parses +json media types as JSON', async () => {
    expect(await send(app, 'POST', '{"n": 1}', 'application/merge-patch+json; charset=utf-8')).toEqual([201, { n: 1 }]);
  });

  it('answers a wrong method with 405', async () => {
    expect(await send(app, 'PUT')).toEqual([405, { detail: 'Method Not Allowed' }]);
  });
});
