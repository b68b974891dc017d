import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type SearchReply, type SearchRequest, subjects } from '@app/contracts';
import { RequestValidationError } from '@app/platform/http';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { SearchBody, SearchResponse } from './search.dto';

/** POST /v1/search: depths instant, fast and auto answered by the search service. */
@ApiTags('Search')
@ApiBearerAuth()
@Controller('v1/search')
export class SearchController {
  constructor(private readonly calls: ServiceCalls) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Search' })
  @ApiOkResponse({ type: SearchResponse })
  async search(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: SearchBody): Promise<SearchResponse> {
    const depth = body.depth ?? (body.mode === 'basic' ? 'fast' : body.mode === 'advanced' ? 'auto' : 'auto');
    if (depth === 'deep') {
      throw new RequestValidationError([
        {
          type: 'value_error',
          loc: ['body', 'depth'],
          msg: "Value error, depth 'deep' (asynchronous research runs) is not available on this server yet; use instant, fast or auto",
          input: 'deep',
          ctx: { error: 'deep runs are not available yet' },
        },
      ]);
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
    const { position: _position, ...response } = await this.calls.command<SearchReply>(subjects.search, request, auth, req.id);
    return response;
  }
}
