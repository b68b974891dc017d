import { Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CONFIG, type Config } from '@app/config';
import { type CancelSearchRunReply, subjects } from '@app/contracts';
import { searchRunListItem, searchRunStream, searchRunView } from '@app/domain/search-run';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { notFound, RequestValidationError } from '@app/platform/http';
import { READ_STORE, type ReadStore } from '@app/readmodels';
import { SEARCH_RUNS, type SearchRunDoc } from '@app/readmodels/projections';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { parseResumeFrom, runStream, sseFrame } from '../streams/run-stream';
import { searchRunStreamSpec } from '../streams/search-run.stream-spec';
import { ListQuery, SearchRunList, SearchRunParams, SearchRunView, StreamQuery } from './searches.dto';

/** Deep search runs: list, view, cancel, audit history and the SSE stream (the WebSocket is in run-sockets.ts). */
@ApiTags('Search')
@ApiBearerAuth()
@Controller('v1/searches')
export class SearchesController {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly calls: ServiceCalls,
  ) {}

  /** The run's document, or 404 (also for another team's run: never reveal it exists). */
  async owned(auth: AuthContext, searchId: string): Promise<SearchRunDoc> {
    const doc = (await this.reads.get(SEARCH_RUNS, searchId)) as (SearchRunDoc & { _id: string }) | undefined;
    if (!doc || doc.team_id !== auth.team_id) throw notFound(`Search run ${searchId} not found`);
    return doc;
  }

  @Get()
  @ApiOperation({ summary: 'List search runs (newest first)' })
  @ApiOkResponse({ type: SearchRunList })
  async list(@Auth() auth: AuthContext, @Query() query: ListQuery): Promise<SearchRunList> {
    const filter = { team_id: auth.team_id };
    const [docs, total] = await Promise.all([
      this.reads.find(SEARCH_RUNS, filter, { sort: { created_at: -1, _id: -1 }, skip: query.offset, limit: query.limit }),
      this.reads.count(SEARCH_RUNS, filter),
    ]);
    return { searches: docs.map((doc) => searchRunListItem((doc as unknown as SearchRunDoc).state)), total, limit: query.limit, offset: query.offset };
  }

  @Get(':search_id')
  @ApiOperation({ summary: 'Retrieve a search run (results fill as they accumulate)' })
  @ApiOkResponse({ type: SearchRunView })
  async view(@Auth() auth: AuthContext, @Param() params: SearchRunParams): Promise<SearchRunView> {
    return searchRunView((await this.owned(auth, params.search_id)).state) as unknown as SearchRunView;
  }

  @Post(':search_id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a search run (results so far are kept)' })
  @ApiOkResponse({ type: SearchRunView })
  async cancel(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Param() params: SearchRunParams): Promise<SearchRunView> {
    await this.owned(auth, params.search_id);
    await this.calls.command<CancelSearchRunReply>(subjects.cancelSearchRun, { search_id: params.search_id }, auth, req.id);
    return searchRunView((await this.owned(auth, params.search_id)).state) as unknown as SearchRunView;
  }

  @Get(':search_id/history')
  @ApiOperation({ summary: 'Every event of the run, oldest first (audit)' })
  async history(@Auth() auth: AuthContext, @Param() params: SearchRunParams) {
    await this.owned(auth, params.search_id);
    const events = await this.events.readStream(searchRunStream(params.search_id));
    return {
      events: events.map((event) => ({
        revision: event.revision.toString(),
        position: event.position.toString(),
        type: event.type,
        at: event.metadata.at ?? event.created,
        data: event.data,
        metadata: {
          correlation_id: event.metadata.correlation_id ?? null,
          causation_id: event.metadata.causation_id ?? null,
          request_id: event.metadata.request_id ?? null,
          key_id: event.metadata.key_id ?? null,
        },
      })),
      total: events.length,
    };
  }

  @Get(':search_id/events')
  @ApiOperation({ summary: 'Search Run Events: server-sent events, resumable with Last-Event-ID' })
  @ApiProduces('text/event-stream')
  async stream(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: SearchRunParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.owned(auth, params.search_id);
    const after = parseResumeFrom(lastEventId ?? query.last_event_id);
    if (after === 'invalid') {
      throw new RequestValidationError([
        { type: 'string_pattern_mismatch', loc: ['header', 'last-event-id'], msg: "String should match pattern '^\\d{1,19}$'", input: lastEventId, ctx: { pattern: '^\\d{1,19}$' } },
      ]);
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': req.id,
    });
    raw.write(': connected\n\n');
    const aborted = new AbortController();
    raw.on('close', () => aborted.abort());
    const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), this.config.streamKeepAliveSeconds * 1000);
    try {
      for await (const event of runStream(this.events, searchRunStream(params.search_id), after, searchRunStreamSpec, aborted.signal)) {
        if (!raw.write(sseFrame(event))) await new Promise((resolve) => (raw.once('drain', resolve), raw.once('close', resolve)));
      }
    } finally {
      clearInterval(keepAlive);
      raw.end();
    }
  }
}
