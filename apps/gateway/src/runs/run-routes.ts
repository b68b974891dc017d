import {
  applyDecorators,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  type Type,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EnumField, IntField, StrField } from '@app/platform';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { contractRef, runList } from '../openapi/contract-schemas';
import type { HttpRunKind } from './run-kind-routes';
import { RunHttp } from './run-http';
import { type RunHistory, RunEventsPageSchema, RunHistorySchema, RunViewSchema } from './run-responses';

/** `?last_event_id=`: resume after this event id (or send Last-Event-ID). */
export class StreamQuery {
  @StrField({
    optional: true,
    pattern: '^\\d{1,19}$',
    description: 'Resume after this event id (or send Last-Event-ID)',
  })
  last_event_id?: string;
}

/** A page of a run's recorded public events. */
export class EventsPageQuery {
  @IntField({ ge: 1, le: 100, default: 100 }) limit!: number;
  @IntField({ ge: 0, default: 0 }) offset!: number;
}

/** Applies method decorators to a method defined on `target`, when the kind has the route. */
function route(target: object, method: string, ...decorators: MethodDecorator[]): void {
  applyDecorators(...decorators)(target, method, Object.getOwnPropertyDescriptor(target, method)!);
}

/**
 * Everything run-shaped the gateway serves for a kind, from its registration (run-kind-routes.ts): list,
 * view, cancel, audit history, recorded events and the SSE stream (the WebSocket beside it is
 * mounted from the same declaration in streams/run-sockets.ts). A kind's own route file keeps
 * only creation and the kind's own verbs.
 */
export function runRoutes(registration: HttpRunKind): Type {
  const { kind, routes: paths } = registration;
  const noun = kind.noun.toLowerCase();

  class IdParams {
    [param: string]: string;
  }
  StrField({ minLength: 1, maxLength: 200 })(IdParams.prototype, paths.param);

  class ListQuery {
    limit!: number;
    offset!: number;
    status?: string;
  }
  IntField({ ge: 1, le: 100, default: paths.list?.defaultLimit ?? 20 })(ListQuery.prototype, 'limit');
  IntField({ ge: 0, default: 0 })(ListQuery.prototype, 'offset');
  if (paths.list?.byStatus) EnumField(paths.list.byStatus, { optional: true })(ListQuery.prototype, 'status');

  @ApiTags(paths.tag)
  @ApiBearerAuth()
  @Controller()
  class RunRoutes {
    constructor(readonly runs: RunHttp) {}

    async list(@Auth() auth: AuthContext, @Query() query: ListQuery) {
      const { items, total } = await this.runs.list(kind, auth, query, query.status);
      return { [paths.list!.key]: items, total, limit: query.limit, offset: query.offset };
    }

    view(@Auth() auth: AuthContext, @Param() params: IdParams): Promise<object> {
      return this.runs.view(kind, auth, params[paths.param]!);
    }

    cancel(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Param() params: IdParams): Promise<object> {
      return this.runs.cancel(kind, auth, req.id, params[paths.param]!);
    }

    history(@Auth() auth: AuthContext, @Param() params: IdParams): Promise<RunHistory> {
      return this.runs.history(kind, auth, params[paths.param]!);
    }

    recorded(@Auth() auth: AuthContext, @Param() params: IdParams, @Query() query: EventsPageQuery) {
      return this.runs.recorded(kind, auth, params[paths.param]!, query);
    }

    stream(
      @Auth() auth: AuthContext,
      @Req() req: AuthedRequest,
      @Param() params: IdParams,
      @Query() query: StreamQuery,
      @Headers('last-event-id') lastEventId: string | undefined,
      @Res() reply: FastifyReply,
    ): Promise<void> {
      return this.runs.sse(kind, auth, params[paths.param]!, req.id, lastEventId ?? query.last_event_id, reply);
    }
  }

  const proto = RunRoutes.prototype;
  // The kind's view and list item in the OpenAPI document: a domain schema, or a component named otherwise.
  const schemaOf = (declared: HttpRunKind['view']) =>
    declared === undefined ? contractRef(RunViewSchema) : contractRef(declared);
  const view = schemaOf(registration.view);
  const item = schemaOf(registration.listItem ?? registration.view);
  if (paths.list)
    route(
      proto,
      'list',
      Get(paths.list.path),
      ApiOperation({ summary: `List ${noun}s (newest first)` }),
      ApiOkResponse({ schema: runList(paths.list.key, item) }),
    );
  route(
    proto,
    'view',
    Get([...paths.view]),
    ApiOperation({ summary: `Retrieve a ${noun}` }),
    ApiOkResponse({ schema: view }),
  );
  if (paths.cancel)
    route(
      proto,
      'cancel',
      Post(paths.cancel),
      HttpCode(200),
      ApiOperation({
        summary: `Cancel a ${noun}: work stops at once, what it found is kept; a completed or failed run is a 409`,
      }),
      ApiOkResponse({ schema: view }),
    );
  route(
    proto,
    'history',
    Get(paths.history),
    ApiOperation({ summary: `Every event of the ${noun}, oldest first (audit)` }),
    ApiOkResponse({ schema: contractRef(RunHistorySchema) }),
  );
  if (paths.recorded)
    route(
      proto,
      'recorded',
      Get(paths.recorded),
      ApiOperation({ summary: `The ${noun}'s recorded public events, oldest first, as a page` }),
      ApiOkResponse({ schema: contractRef(RunEventsPageSchema) }),
    );
  if (paths.sse)
    route(
      proto,
      'stream',
      Get(paths.sse),
      ApiOperation({ summary: `${kind.noun} events: server-sent events, resumable with Last-Event-ID` }),
      ApiProduces('text/event-stream'),
      ApiOkResponse({
        description:
          'Server-sent events: `id:` the event id (resume after it), `event:` its name (run.queued, run.started, …, run.completed), `data:` its JSON',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      }),
    );
  // Distinct names: OpenAPI operation ids and route logs are `<class>_<method>`.
  Object.defineProperty(RunRoutes, 'name', { value: `${kind.name[0]!.toUpperCase()}${kind.name.slice(1)}RunRoutes` });
  return RunRoutes;
}
