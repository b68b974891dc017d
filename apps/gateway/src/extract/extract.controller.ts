import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ExtractRequest, subjects } from '@app/contracts';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { ExtractBody, ExtractQuery, ExtractResponse } from './extract.dto';

/** GET and POST /v1/extract, answered by the extraction service. */
@ApiTags('Extract')
@ApiBearerAuth()
@Controller('v1/extract')
export class ExtractController {
  constructor(private readonly calls: ServiceCalls) {}

  @Get()
  @ApiOperation({ summary: 'Extract a URL' })
  @ApiOkResponse({ type: ExtractResponse })
  one(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Query() query: ExtractQuery): Promise<ExtractResponse> {
    return this.run(auth, req.id, { urls: [query.url], objective: query.objective ?? null, format: query.format, full_content: true, excerpts: true, render: query.render });
  }

  @Post()
  @HttpCode(200)
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
    const { results, credits, usage } = await this.calls.send(subjects.extract, request, auth, requestId);
    return { results, credits, usage };
  }
}
