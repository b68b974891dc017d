import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CONFIG, type Config } from '@app/config';
import { type ExtractRequest, subjects } from '@app/contracts';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { AnswersWithin, REPLY_MARGIN_MS } from '../http/answer-wait';
import { ExtractBody, ExtractQuery, ExtractResponse } from './extract.dto';

/**
 * GET and POST /v1/extract, answered by the extraction service, which bounds the call as a whole
 * (EXTRACT_CALL_TIMEOUT_MS: a URL not read by then is that URL's error); the gateway waits that
 * long and a margin, not the shorter BUS_TIMEOUT_MS, so a slow page or a render is an answer.
 */
@ApiTags('Extract')
@ApiBearerAuth()
@Controller('v1/extract')
export class ExtractController {
  constructor(
    private readonly calls: ServiceCalls,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Get()
  @AnswersWithin((_body, config) => config.extractCallTimeoutMs + REPLY_MARGIN_MS)
  @ApiOperation({ summary: 'Extract a URL' })
  @ApiOkResponse({ type: ExtractResponse })
  one(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Query() query: ExtractQuery): Promise<ExtractResponse> {
    return this.run(auth, req.id, {
      urls: [query.url],
      objective: query.objective ?? null,
      format: query.format,
      full_content: true,
      excerpts: true,
      render: query.render,
    });
  }

  @Post()
  @HttpCode(200)
  @AnswersWithin((_body, config) => config.extractCallTimeoutMs + REPLY_MARGIN_MS)
  @ApiOperation({ summary: 'Extract' })
  @ApiOkResponse({ type: ExtractResponse })
  many(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: ExtractBody): Promise<ExtractResponse> {
    return this.run(auth, req.id, {
      urls: body.urls,
      objective: body.objective ?? null,
      format: body.format,
      full_content: body.full_content,
      excerpts: body.excerpts,
      max_chars_per_result: body.max_chars_per_result ?? null,
      render: body.render,
    });
  }

  private async run(auth: AuthContext, requestId: string, request: ExtractRequest): Promise<ExtractResponse> {
    const { results, credits, usage } = await this.calls.send(
      subjects.extract,
      request,
      auth,
      requestId,
      Math.max(this.config.busTimeoutMs, this.config.extractCallTimeoutMs + REPLY_MARGIN_MS),
    );
    return { results, credits, usage };
  }
}
