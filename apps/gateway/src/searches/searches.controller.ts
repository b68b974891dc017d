import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { subjects } from '@app/contracts';
import { searchRuns, type SearchRunView } from '@app/domain/search-run';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { RunHttp, type RunHistory } from '../runs/run-http';
import { ListQuery, SearchRunList, SearchRunParams, SearchRunView as SearchRunViewDto, StreamQuery } from './searches.dto';

/** Deep search runs: list, view, cancel, audit history and the SSE stream (the WebSocket is in run-sockets.ts). */
@ApiTags('Search')
@ApiBearerAuth()
@Controller('v1/searches')
export class SearchesController {
  constructor(
    private readonly runs: RunHttp,
    private readonly calls: ServiceCalls,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List search runs (newest first)' })
  @ApiOkResponse({ type: SearchRunList })
  async list(@Auth() auth: AuthContext, @Query() query: ListQuery) {
    const { items, total } = await this.runs.list(searchRuns, auth, query);
    return { searches: items, total, limit: query.limit, offset: query.offset };
  }

  @Get(':search_id')
  @ApiOperation({ summary: 'Retrieve a search run (results fill as they accumulate)' })
  @ApiOkResponse({ type: SearchRunViewDto })
  view(@Auth() auth: AuthContext, @Param() params: SearchRunParams): Promise<SearchRunView> {
    return this.runs.view(searchRuns, auth, params.search_id);
  }

  @Post(':search_id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a search run (results so far are kept)' })
  @ApiOkResponse({ type: SearchRunViewDto })
  async cancel(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Param() params: SearchRunParams): Promise<SearchRunView> {
    await this.runs.owned(searchRuns, auth, params.search_id);
    await this.calls.send(subjects.cancelSearchRun, { search_id: params.search_id }, auth, req.id);
    return this.runs.viewAfterWrite(searchRuns, auth, params.search_id);
  }

  @Get(':search_id/history')
  @ApiOperation({ summary: 'Every event of the run, oldest first (audit)' })
  history(@Auth() auth: AuthContext, @Param() params: SearchRunParams): Promise<RunHistory> {
    return this.runs.history(searchRuns, auth, params.search_id);
  }

  @Get(':search_id/events')
  @ApiOperation({ summary: 'Search Run Events: server-sent events, resumable with Last-Event-ID' })
  @ApiProduces('text/event-stream')
  stream(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: SearchRunParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.runs.sse(searchRuns, auth, params.search_id, req.id, lastEventId ?? query.last_event_id, reply);
  }
}
