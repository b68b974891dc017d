/**
 * The sample application the HTTP-layer specs (http-app*.spec.ts) ask: a Nest app on Fastify with
 * the platform's validation pipe, exception filter and error handling over a controller whose DTOs
 * use every field decorator, the injected requests they make of it, and the hooks that start it.
 */
import 'reflect-metadata';
import {
  Body,
  Controller,
  Delete,
  Get,
  InternalServerErrorException,
  Module,
  NotFoundException,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Conflict, Invalid, NotFound } from '@app/domain';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
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
} from '../index';

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

export const BODY_LIMIT = 1024;
export let app: NestFastifyApplication;

export type Res = { statusCode: number; headers: Record<string, unknown>; json: () => any; body: string };
export const request = (opts: { method: string; url: string; payload?: unknown; headers?: Record<string, string> }) =>
  app
    .getHttpAdapter()
    .getInstance()
    .inject(opts as never) as unknown as Promise<Res>;
export const post = (payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  request({
    method: 'POST',
    url: '/search',
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    headers,
  });
export const get = (url: string, headers?: Record<string, string>) => request({ method: 'GET', url, headers });

/** Expects a 422 and returns its detail list. */
export async function errorsOf(res: Promise<Res>) {
  const r = await res;
  expect(r.statusCode).toBe(422);
  expect(r.headers['content-type']).toBe('application/json');
  return r.json().detail;
}

/** Starts the sample app before the calling spec file's tests and closes it after them; restores mocks after each test. */
export function useSampleApp(): void {
  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(
      SampleModule,
      new FastifyAdapter({ bodyLimit: BODY_LIMIT }),
      {
        logger: false,
      },
    );
    installFastifyErrorHandling(app);
    app.useGlobalPipes(new PydanticValidationPipe());
    app.useGlobalFilters(new ApiExceptionFilter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());
  afterEach(() => jest.restoreAllMocks());
}
