import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Injectable,
  INestMicroservice,
  Module,
  NestInterceptor,
  UseInterceptors,
  UsePipes,
  ValidationPipe,
} from '@nestjs/common';
import {
  BaseRpcContext,
  Ctx,
  EventPattern,
  MessagePattern,
  NatsContext,
  Payload,
  RpcException,
} from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { IsInt, Min } from 'class-validator';
import { headers as natsHeaders } from 'nats';
import { map, NEVER, Observable } from 'rxjs';
import { BusClient } from './bus-client';
import { BusModule } from './bus.module';
import { BusController, BusReplyError, BusTimeoutError, toBusError } from './errors';
import { busHeaders } from './headers';
import { InProcessContext } from './inprocess.transport';
import { FAN_OUT, microserviceOptions } from './microservice-options';
import { BusPayloadError } from './wire';

const IN_PROCESS = { bus: 'inprocess', natsServers: '' } as const;

class CountDto {
  @IsInt()
  @Min(0)
  count!: number;
}

@Injectable()
class StampInterceptor implements NestInterceptor {
  intercept(_ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((reply) => ({ ...(reply as object), stamped: true })));
  }
}

class NotFound extends Error {
  readonly status = 404;
}

/** What the event handlers saw, per test instance. */
const seen: Record<string, unknown[]> = {};
const record = (key: string, value: unknown) => (seen[key] ??= []).push(value);

@BusController()
class Handlers {
  @MessagePattern('t.echo')
  echo(@Payload() data: unknown, @Ctx() ctx: BaseRpcContext) {
    return { data, headers: busHeaders(ctx), subject: (ctx as InProcessContext).getSubject() };
  }

  @MessagePattern('t.types')
  types(@Payload() data: Record<string, unknown>) {
    return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, { type: typeof v, value: v }]));
  }

  @MessagePattern('t.validated')
  @UseInterceptors(StampInterceptor)
  @UsePipes(new ValidationPipe({ transform: true, forbidNonWhitelisted: true, whitelist: true }))
  validated(@Payload() dto: CountDto) {
    return { isDto: dto instanceof CountDto, count: dto.count };
  }

  @MessagePattern('t.never')
  never() {
    return NEVER;
  }

  @MessagePattern('t.slow')
  async slow(@Payload() data: { ms: number }) {
    await new Promise((r) => setTimeout(r, data.ms));
    return { late: true };
  }

  @MessagePattern('t.refuse')
  refuse() {
    throw new NotFound('run r-1 not found');
  }

  @MessagePattern('t.refuse-as-data')
  refuseAsData() {
    return { error: { status: 409, detail: 'already cancelled' } };
  }

  @MessagePattern('t.crash')
  crash() {
    throw new Error('secret: db password in here');
  }

  @MessagePattern('t.bigint-reply')
  bigintReply() {
    return { position: 1n };
  }

  @EventPattern('t.event')
  onEvent(@Payload() data: unknown, @Ctx() ctx: BaseRpcContext) {
    record('t.event', { data, headers: busHeaders(ctx) });
  }
}

@Module({ controllers: [Handlers] })
class HandlersModule {}

async function startService(imports: any[], service = 'svc'): Promise<INestMicroservice> {
  const moduleRef = await Test.createTestingModule({ imports }).setLogger(silentLogger).compile();
  const app = moduleRef.createNestMicroservice(microserviceOptions(IN_PROCESS, service));
  app.useLogger(silentLogger);
  await app.listen();
  return app;
}

const silentLogger = { log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} };

const until = async (check: () => boolean, ms = 1000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('in-process transport through Nest + BusClient', () => {
  let app: INestMicroservice;
  let bus: BusClient;

  beforeAll(async () => {
    app = await startService([BusModule.forRoot({ transport: 'inprocess', timeoutMs: 2000 }), HandlersModule]);
    bus = app.get(BusClient);
  });
  afterAll(() => app.close());

  it('request/reply: the handler gets the payload and the subject, the caller the reply', async () => {
    const reply = await bus.request<object, { data: unknown; subject: string }>('t.echo', { q: 'nats', n: [1, 2] });
    expect(reply).toMatchObject({ data: { q: 'nats', n: [1, 2] }, subject: 't.echo' });
  });

  it('headers reach the handler via busHeaders(ctx); undefined ones are dropped', async () => {
    const reply = await bus.request<object, { headers: unknown }>(
      't.echo',
      {},
      { headers: { correlation_id: 'c-1', request_id: 'r-1', team_id: undefined } },
    );
    expect(reply.headers).toEqual({ correlation_id: 'c-1', request_id: 'r-1' });
  });

  it('runs the handler interceptors and pipes (the normal Nest pipeline)', async () => {
    await expect(bus.request('t.validated', { count: 3 })).resolves.toEqual({ isDto: true, count: 3, stamped: true });
    const refused = bus.request('t.validated', { count: -1, extra: true });
    await expect(refused).rejects.toBeInstanceOf(BusReplyError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      detail: expect.stringMatching(/count must not be less than 0/),
    });
  });

  it('a request the handler never answers becomes BusTimeoutError after the timeout', async () => {
    const started = Date.now();
    const err = await bus.request('t.never', {}, { timeoutMs: 80 }).catch((e) => e);
    expect(err).toBeInstanceOf(BusTimeoutError);
    expect(err).toMatchObject({ subject: 't.never', reason: 'timeout', timeoutMs: 80 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('a late reply after the timeout is dropped (the next request gets its own reply)', async () => {
    await expect(bus.request('t.slow', { ms: 60 }, { timeoutMs: 20 })).rejects.toMatchObject({ reason: 'timeout' });
    await new Promise((r) => setTimeout(r, 80));
    await expect(bus.request('t.echo', { after: 'late' })).resolves.toMatchObject({ data: { after: 'late' } });
  });

  it('a subject without a handler fails at once like NATS "no responders", not after the timeout', async () => {
    const started = Date.now();
    const err = await bus.request('t.nobody', {}, { timeoutMs: 5000 }).catch((e) => e);
    expect(err).toBeInstanceOf(BusTimeoutError);
    expect(err).toMatchObject({ subject: 't.nobody', reason: 'no_responders' });
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('a DomainError-like {status, message} thrown by a handler crosses as {error} and becomes BusReplyError', async () => {
    await expect(bus.request('t.refuse', {})).rejects.toMatchObject({
      name: 'BusReplyError',
      status: 404,
      detail: 'run r-1 not found',
      subject: 't.refuse',
    });
  });

  it('an error reply returned as data is mapped the same way', async () => {
    await expect(bus.request('t.refuse-as-data', {})).rejects.toMatchObject({
      status: 409,
      detail: 'already cancelled',
    });
  });

  it('an unknown error becomes a 500 without its message', async () => {
    const err = await bus.request('t.crash', {}).catch((e) => e);
    expect(err).toMatchObject({ status: 500, detail: 'Internal Server Error' });
    expect(JSON.stringify(err)).not.toMatch(/secret/);
  });

  it('payloads cross as JSON: a Date arrives as its ISO string, undefined fields vanish', async () => {
    const when = new Date('2024-05-01T12:00:00.000Z');
    const reply = await bus.request<object, Record<string, { type: string; value: unknown }>>('t.types', {
      when,
      gone: undefined,
      n: 1,
    });
    expect(reply).toEqual({
      when: { type: 'string', value: '2024-05-01T12:00:00.000Z' },
      n: { type: 'number', value: 1 },
    });
  });

  it('a bigint in a request is rejected before it is sent, as JSON.stringify would on NATS', async () => {
    const err = await bus.request('t.echo', { position: 10n }).catch((e) => e);
    expect(err).toBeInstanceOf(BusPayloadError);
    expect(err).toMatchObject({ subject: 't.echo', message: expect.stringMatching(/BigInt/) });
  });

  it('a bigint in a reply becomes a 500 instead of crashing the responder', async () => {
    await expect(bus.request('t.bigint-reply', {})).rejects.toMatchObject({
      status: 500,
      detail: 'Internal Server Error',
    });
  });

  it('a null payload is refused (send {})', async () => {
    await expect(bus.request('t.echo', null)).rejects.toThrow(BusPayloadError);
    await expect(bus.emit('t.event', undefined)).rejects.toThrow(/null or undefined payload/);
  });

  it('events reach the event handler with headers; emit resolves', async () => {
    await bus.emit('t.event', { n: 7 }, { headers: { correlation_id: 'c-ev' } });
    await until(() => (seen['t.event'] ?? []).length > 0);
    expect(seen['t.event']).toEqual([{ data: { n: 7 }, headers: { correlation_id: 'c-ev' } }]);
  });

  it('an event to a subject nobody listens on is dropped silently (NATS semantics)', async () => {
    await expect(bus.emit('t.no-listener', { n: 1 })).resolves.toBeUndefined();
  });
});

describe('in-process queue groups and fan-out', () => {
  const instance = (name: string, service: string) => {
    @BusController()
    class Worker {
      @MessagePattern('q.work')
      work() {
        record(`work:${service}`, name);
        return { by: name };
      }
      @EventPattern('q.event')
      event(@Payload() n: number) {
        record(`event:${service}`, `${name}:${n}`);
      }
      @EventPattern('q.fanout', FAN_OUT)
      fanout(@Payload() n: number) {
        record('fanout', `${name}:${n}`);
      }
    }
    Object.defineProperty(Worker, 'name', { value: `Worker_${name}` });
    @Module({ controllers: [Worker] })
    class WorkerModule {}
    return startService([WorkerModule], service);
  };

  let apps: INestMicroservice[];
  let bus: BusClient;
  beforeAll(async () => {
    apps = await Promise.all([instance('a1', 'alpha'), instance('a2', 'alpha'), instance('b1', 'beta')]);
    bus = new BusClient({ transport: 'inprocess' });
  });
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it('a request is answered by one member of each queue group; members of a group take turns', async () => {
    for (let i = 0; i < 4; i++) await bus.request('q.work', {});
    await new Promise((r) => setTimeout(r, 20));
    expect(seen['work:alpha']).toEqual(['a1', 'a2', 'a1', 'a2']);
    expect(seen['work:beta']).toEqual(['b1', 'b1', 'b1', 'b1']);
  });

  it('an event goes to one member per queue group, but to every FAN_OUT listener', async () => {
    await bus.emit('q.event', 1);
    await bus.emit('q.fanout', 2);
    await until(() => (seen['fanout'] ?? []).length === 3);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen['event:alpha']).toHaveLength(1);
    expect(seen['event:beta']).toEqual(['b1:1']);
    expect([...seen['fanout']].sort()).toEqual(['a1:2', 'a2:2', 'b1:2']);
  });

  it('a closed server no longer receives: its subjects have no responders', async () => {
    const [a1, a2, b1] = apps;
    await Promise.all([a1.close(), a2.close(), b1.close()]);
    await expect(bus.request('q.work', {}, { timeoutMs: 5000 })).rejects.toMatchObject({ reason: 'no_responders' });
  });
});

describe('BusModule.forRootAsync', () => {
  it('builds BusClient from injected config (timeout taken from it)', async () => {
    const CONFIG = Symbol('CONFIG');
    @Module({ providers: [{ provide: CONFIG, useValue: { bus: 'inprocess', busTimeoutMs: 40 } }], exports: [CONFIG] })
    class ConfigModule {}
    const app = await startService([
      BusModule.forRootAsync({
        imports: [ConfigModule],
        inject: [CONFIG],
        useFactory: (c: { bus: 'inprocess'; busTimeoutMs: number }) => ({
          transport: c.bus,
          timeoutMs: c.busTimeoutMs,
        }),
      }),
      HandlersModule,
    ]);
    try {
      await expect(app.get(BusClient).request('t.never', {})).rejects.toMatchObject({
        reason: 'timeout',
        timeoutMs: 40,
      });
    } finally {
      await app.close();
    }
  });
});

describe('toBusError', () => {
  it('keeps HttpException status and message (ValidationPipe messages joined)', () => {
    expect(toBusError(new BadRequestException(['a is bad', 'b is bad']))).toEqual({
      error: { status: 400, detail: 'a is bad; b is bad' },
    });
  });
  it('keeps a DomainError-like {status, message}, also inside an RpcException', () => {
    expect(toBusError(Object.assign(new Error('conflict'), { status: 409 }))).toEqual({
      error: { status: 409, detail: 'conflict' },
    });
    expect(toBusError(new RpcException({ status: 422, message: 'bad schema' }))).toEqual({
      error: { status: 422, detail: 'bad schema' },
    });
  });
  it("maps a domain refusal {refusal, message} to API.md's status: not_found 404, conflict 409, invalid 422", () => {
    const refusal = (name: string, message: string) => Object.assign(new Error(message), { refusal: name });
    expect(toBusError(refusal('not_found', 'run r-1 not found'))).toEqual({
      error: { status: 404, detail: 'run r-1 not found' },
    });
    expect(toBusError(refusal('conflict', 'already cancelled'))).toEqual({
      error: { status: 409, detail: 'already cancelled' },
    });
    expect(toBusError(new RpcException(refusal('invalid', 'bad cadence')))).toEqual({
      error: { status: 422, detail: 'bad cadence' },
    });
    expect(toBusError(refusal('toString', 'inherited names are no refusal'))).toEqual({
      error: { status: 500, detail: 'Internal Server Error' },
    });
  });
  it('hides everything else behind a 500: unknown errors, out-of-range statuses, HTTP client errors', () => {
    const internal = { error: { status: 500, detail: 'Internal Server Error' } };
    expect(toBusError(new Error('boom'))).toEqual(internal);
    expect(toBusError({ status: 200, message: 'ok?' })).toEqual(internal);
    expect(
      toBusError(Object.assign(new Error('Request failed with status code 404'), { status: 404, isAxiosError: true })),
    ).toEqual(internal);
    expect(toBusError('a string')).toEqual(internal);
  });
});

describe('busHeaders', () => {
  it('reads NATS message headers and in-process headers alike', () => {
    const h = natsHeaders();
    h.set('correlation_id', 'c-9');
    expect(busHeaders(new NatsContext(['s', h]))).toEqual({ correlation_id: 'c-9' });
    expect(busHeaders(new NatsContext(['s', undefined]))).toEqual({});
    expect(busHeaders(new InProcessContext(['s', { request_id: 'r-9' }]))).toEqual({ request_id: 'r-9' });
  });
});
