import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type FindAllParams, findAllRuns, type FindAllView, FindAllViewSchema } from '@app/domain';
import { RequestValidationError } from '@app/platform';
import { AnswersWithin, waitSecondsOf } from '../http/answer-wait';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { contractRef } from '../openapi/contract-schemas';
import { RunHttp } from '../runs/run-http';

const findAllRun = contractRef(FindAllViewSchema);
import { EnrichBody, ExtendBody, FindAllBody, FindAllIdParams } from './findall.dto';
import { maxCreditsParam } from '../runs/max-credits.field';

/**
 * FindAll runs (spec "FindAll run"; API.md routes): creation, extend and enrich. List, view,
 * cancel, history and streams are the kind's run routes (runs/run-routes.ts).
 */
@ApiTags('FindAll')
@ApiBearerAuth()
@Controller('v1/findall')
export class FindAllController {
  constructor(private readonly runs: RunHttp) {}

  @Post('runs')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a FindAll run: 202 at once (entities [], count 0, credits 0)' })
  @ApiAcceptedResponse({ schema: findAllRun })
  async createRun(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest & FastifyRequest,
    @Body() body: FindAllBody,
  ): Promise<FindAllView> {
    return this.runs.viewAsRequested(findAllRuns, auth, await this.start(auth, req, body));
  }

  @Post()
  @AnswersWithin(waitSecondsOf)
  @ApiOperation({ summary: 'FindAll: starts a run and waits up to wait_seconds; 200 when it ended, else 202' })
  @ApiOkResponse({ description: 'The run ended within wait_seconds', schema: findAllRun })
  @ApiAcceptedResponse({ description: 'Still running: poll or stream it', schema: findAllRun })
  async create(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest & FastifyRequest,
    @Body() body: FindAllBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FindAllView> {
    return this.runs.viewWhenEnded(
      findAllRuns,
      auth,
      await this.start(auth, req, body),
      body.wait_seconds * 1000,
      req,
      reply,
    );
  }

  @Post('runs/:findall_id/extend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Extend a completed FindAll run: more entities, known candidates are not checked again' })
  @ApiOkResponse({ schema: findAllRun })
  async extend(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: FindAllIdParams,
    @Body() body: ExtendBody,
  ): Promise<FindAllView> {
    return this.runs.reopen(findAllRuns, auth, req.id, params.findall_id, 'extend', {
      additional_limit: body.additional_limit,
    });
  }

  @Post('runs/:findall_id/enrich')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enrich a completed FindAll run: new fields for every matched entity' })
  @ApiOkResponse({ schema: findAllRun })
  async enrich(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: FindAllIdParams,
    @Body() body: EnrichBody,
  ): Promise<FindAllView> {
    if (!body.fields?.length && !body.output_schema) {
      throw new RequestValidationError([
        { type: 'missing', loc: ['body', 'fields'], msg: 'Field required (fields or output_schema)', input: body },
      ]);
    }
    const detail = {
      enrichment_id: `enrich_${randomUUID()}`,
      fields: body.fields ?? null,
      output_schema: body.output_schema ?? null,
    };
    return this.runs.reopen(findAllRuns, auth, req.id, params.findall_id, 'enrich', detail);
  }

  private async start(auth: AuthContext, req: AuthedRequest & FastifyRequest, body: FindAllBody): Promise<string> {
    const exclude = (body.exclude_list ?? []).map((entry) => ({ name: entry.name ?? null, url: entry.url ?? null }));
    const empty = exclude.findIndex((entry) => !entry.name && !entry.url);
    if (empty >= 0)
      throw new RequestValidationError([
        {
          type: 'value_error',
          loc: ['body', 'exclude_list', empty],
          msg: 'Value error, an exclude_list entry gives a name or a url',
          input: body.exclude_list![empty],
        },
      ]);
    const params: FindAllParams = {
      query: body.query,
      fields: body.fields ?? null,
      output_schema: body.output_schema ?? null,
      limit: matchLimit(body, req.body),
      webhook: body.webhook ?? null,
      ...maxCreditsParam(body),
      ...(exclude.length > 0 && { exclude_list: exclude }),
      ...(body.generator === 'preview' && { generator: 'preview' as const }),
    };
    return this.runs.request(findAllRuns, auth, req.id, params);
  }
}

/**
 * How many matches end the run: `match_limit` (Parallel's name) or `limit` (the spec's), the same
 * bound; both given with different values is a 422 on match_limit (the default of `limit` is not a
 * value given).
 */
function matchLimit(body: FindAllBody, raw: unknown): number {
  if (body.match_limit === undefined || body.match_limit === null) return body.limit;
  const limitGiven = typeof raw === 'object' && raw !== null && (raw as { limit?: unknown }).limit !== undefined;
  if (limitGiven && body.limit !== body.match_limit)
    throw new RequestValidationError([
      {
        type: 'value_error',
        loc: ['body', 'match_limit'],
        msg: `Value error, match_limit and limit name the same bound: give one (limit is ${body.limit}, match_limit ${body.match_limit})`,
        input: body.match_limit,
      },
    ]);
  return body.match_limit;
}
