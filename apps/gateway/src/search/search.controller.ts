import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type SearchRequest, subjects } from '@app/contracts';
import {
  DEEP_SEARCH_BOUNDS,
  type DeepSearchParams,
  searchRuns,
  type SearchRunView,
  SearchRunViewSchema,
} from '@app/domain';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { contractRef } from '../openapi/contract-schemas';
import { RunHttp } from '../runs/run-http';
import { SearchBody, SearchResponse } from './search.dto';
import { maxCreditsParam } from '../runs/max-credits.field';
import { FollowUps } from '../runs/follow-ups';

/**
 * POST /v1/search: depths instant, fast and auto answered by the search service; depth deep
 * starts a run owned by the research service and answers 202 with its view.
 */
@ApiTags('Search')
@ApiBearerAuth()
@Controller('v1/search')
export class SearchController {
  constructor(
    private readonly calls: ServiceCalls,
    private readonly runs: RunHttp,
    private readonly followUps: FollowUps,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Search' })
  @ApiOkResponse({ type: SearchResponse, description: 'depth instant, fast or auto' })
  @ApiAcceptedResponse({
    schema: contractRef(SearchRunViewSchema),
    description: 'depth deep: the run, to poll or stream',
  })
  async search(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Body() body: SearchBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SearchResponse | SearchRunView> {
    const depth = body.depth ?? (body.mode === 'basic' ? 'fast' : body.mode === 'advanced' ? 'auto' : 'auto');
    if (depth === 'deep') {
      reply.status(202);
      return this.deep(auth, req.id, body);
    }
    const request: SearchRequest = {
      queries: body.queries,
      objective: body.objective ?? null,
      depth,
      category: body.category ?? null,
      limit: body.limit,
      country: (body.country ?? body.location ?? 'us').toLowerCase(),
      language: body.language.toLowerCase(),
      freshness: body.freshness ?? null,
      include_domains: body.include_domains ?? null,
      exclude_domains: body.exclude_domains ?? null,
      max_excerpt_chars: body.max_excerpt_chars ?? null,
      session_id: body.session_id ?? `session_${randomUUID()}`,
      client_model: body.client_model ?? null,
      advanced_settings: body.advanced_settings ?? null,
    };
    const { position: _position, ...response } = await this.calls.send(subjects.search, request, auth, req.id);
    return response;
  }

  private async deep(auth: AuthContext, requestId: string, body: SearchBody): Promise<SearchRunView> {
    // Every filter and shaping option of a synchronous search applies in the run too.
    const params: DeepSearchParams = {
      queries: body.queries,
      prompt: body.prompt ?? null,
      objective: body.objective ?? null,
      limit: body.limit,
      country: (body.country ?? body.location ?? 'us').toLowerCase(),
      language: body.language.toLowerCase(),
      max_subqueries: body.max_subqueries ?? DEEP_SEARCH_BOUNDS.max_subqueries.default,
      max_fetches: body.max_fetches ?? DEEP_SEARCH_BOUNDS.max_fetches.default,
      webhook: body.webhook ?? null,
      category: body.category ?? null,
      freshness: body.freshness ?? null,
      include_domains: body.include_domains ?? null,
      exclude_domains: body.exclude_domains ?? null,
      max_excerpt_chars: body.max_excerpt_chars ?? null,
      advanced_settings: body.advanced_settings ?? null,
      ...maxCreditsParam(body),
      ...(body.previous_interaction_id && {
        follows: await this.followUps.contextFor(auth, body.previous_interaction_id),
      }),
    };
    return this.runs.viewAfterWrite(searchRuns, auth, await this.runs.request(searchRuns, auth, requestId, params));
  }
}
