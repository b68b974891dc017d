import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { subjects } from '@app/contracts';
import { findAllRuns, type FindAllView } from '@app/domain/findall';
import { RequestValidationError } from '@app/platform/http';
import { AnswersWithin, waitSecondsOf } from '../http/answer-wait';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { RunHttp, type RunHistory } from '../runs/run-http';
import { StreamQuery } from '../searches/searches.dto';
import { EnrichBody, ExtendBody, FindAllBody, FindAllIdParams, FindAllListQuery } from './findall.dto';

/** FindAll runs (spec "FindAll run"; API.md routes): everything run-shaped is RunHttp's. */
@ApiTags('FindAll')
@ApiBearerAuth()
@Controller('v1/findall')
export class FindAllController {
  constructor(
    private readonly runs: RunHttp,
    private readonly calls: ServiceCalls,
  ) {}

  @Post('runs')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a FindAll run: 202 at once (entities [], count 0, credits 0)' })
  async createRun(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: FindAllBody): Promise<FindAllView> {
    return this.runs.viewAsRequested(findAllRuns, auth, await this.start(auth, req.id, body));
  }

  @Post()
  @AnswersWithin(waitSecondsOf)
  @ApiOperation({ summary: 'FindAll: starts a run and waits up to wait_seconds; 200 when it ended, else 202' })
  async create(@Auth() auth: AuthContext, @Req() req: AuthedRequest & FastifyRequest, @Body() body: FindAllBody, @Res({ passthrough: true }) reply: FastifyReply): Promise<FindAllView> {
    return this.runs.viewWhenEnded(findAllRuns, auth, await this.start(auth, req.id, body), body.wait_seconds * 1000, req, reply);
  }

  @Get('runs')
  @ApiOperation({ summary: 'Findall Run List (newest first)' })
  async list(@Auth() auth: AuthContext, @Query() query: FindAllListQuery) {
    const { items, total } = await this.runs.list(findAllRuns, auth, query);
    return { runs: items, total, limit: query.limit, offset: query.offset };
  }

  @Get('runs/:findall_id')
  @ApiOperation({ summary: 'Retrieve a FindAll run: entities grow as matches are confirmed' })
  view(@Auth() auth: AuthContext, @Param() params: FindAllIdParams): Promise<FindAllView> {
    return this.runs.view(findAllRuns, auth, params.findall_id);
  }

  @Get('runs/:findall_id/events')
  @ApiOperation({ summary: 'Stream FindAll run events (entity.found as each match is confirmed)' })
  @ApiProduces('text/event-stream')
  stream(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: FindAllIdParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.runs.sse(findAllRuns, auth, params.findall_id, req.id, lastEventId ?? query.last_event_id, reply);
  }

  @Post('runs/:findall_id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel FindAll run: work stops at once; the matches found are kept' })
  async cancel(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Param() params: FindAllIdParams): Promise<FindAllView> {
    await this.runs.owned(findAllRuns, auth, params.findall_id);
    await this.calls.send(subjects.cancelFindAll, { findall_id: params.findall_id }, auth, req.id);
    return this.runs.viewAfterWrite(findAllRuns, auth, params.findall_id);
  }

  @Post('runs/:findall_id/extend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Extend a completed FindAll run: more entities, known candidates are not checked again' })
  async extend(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Param() params: FindAllIdParams, @Body() body: ExtendBody): Promise<FindAllView> {
    await this.runs.owned(findAllRuns, auth, params.findall_id);
    await this.calls.send(subjects.extendFindAll, { findall_id: params.findall_id, additional_limit: body.additional_limit }, auth, req.id);
    return this.runs.viewAfterWrite(findAllRuns, auth, params.findall_id);
  }

  @Post('runs/:findall_id/enrich')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enrich a completed FindAll run: new fields for every matched entity' })
  async enrich(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Param() params: FindAllIdParams, @Body() body: EnrichBody): Promise<FindAllView> {
    if (!body.fields?.length && !body.output_schema) {
      throw new RequestValidationError([{ type: 'missing', loc: ['body', 'fields'], msg: 'Field required (fields or output_schema)', input: body }]);
    }
    await this.runs.owned(findAllRuns, auth, params.findall_id);
    await this.calls.send(subjects.enrichFindAll, { findall_id: params.findall_id, fields: body.fields ?? null, output_schema: body.output_schema ?? null }, auth, req.id);
    return this.runs.viewAfterWrite(findAllRuns, auth, params.findall_id);
  }

  @Get('runs/:findall_id/history')
  @ApiOperation({ summary: 'Every event of the run, oldest first (audit)' })
  history(@Auth() auth: AuthContext, @Param() params: FindAllIdParams): Promise<RunHistory> {
    return this.runs.history(findAllRuns, auth, params.findall_id);
  }

  private async start(auth: AuthContext, requestId: string, body: FindAllBody): Promise<string> {
    const params = { query: body.query, fields: body.fields ?? null, output_schema: body.output_schema ?? null, limit: body.limit, webhook: body.webhook ?? null };
    await this.runs.assertRoomToQueue(auth);
    const { findall_id } = await this.calls.send(subjects.startFindAll, { params }, auth, requestId);
    return findall_id;
  }
}
