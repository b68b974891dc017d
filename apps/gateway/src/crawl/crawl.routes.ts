import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ref } from '../openapi/response-schemas';
import { subjects } from '@app/contracts';
import { crawlPageView, type CrawlPageView, crawlRuns, type CrawlView } from '@app/domain';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { RunHttp } from '../runs/run-http';
import { CrawlBody, CrawlIdParams, CrawlPagesQuery, MapBody } from './crawl.dto';

/**
 * The crawl kind's route file: creating a crawl and its view with a page of its pages (list,
 * summary, cancel, history and streams come from its registration); and POST /v1/map.
 */
@ApiTags('Crawl')
@ApiBearerAuth()
@Controller('v1')
export class CrawlRoutes {
  constructor(
    private readonly runs: RunHttp,
    private readonly calls: ServiceCalls,
  ) {}

  @Post('crawl')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a crawl run: 202 {crawl_id, status}; pages arrive as page.fetched events' })
  @ApiAcceptedResponse({ schema: ref('CrawlStarted') })
  async create(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: CrawlBody): Promise<{ crawl_id: string; status: string }> {
    const id = await this.runs.request(crawlRuns, auth, req.id, {
      url: body.url,
      limit: body.limit,
      max_depth: body.max_depth,
      include_paths: body.include_paths ?? [],
      exclude_paths: body.exclude_paths ?? [],
      include_subdomains: body.include_subdomains,
      format: body.format,
      render: body.render,
      index: body.index,
      webhook: body.webhook ?? null,
    });
    const view = await this.runs.viewAsRequested(crawlRuns, auth, id);
    return { crawl_id: view.crawl_id, status: view.status };
  }

  @Get('crawl/:crawl_id')
  @ApiOperation({ summary: 'Retrieve a crawl run: status, counts and a page of its pages (limit, offset), in the order read' })
  @ApiOkResponse({ schema: ref('CrawlRunWithPages') })
  async view(@Auth() auth: AuthContext, @Param() params: CrawlIdParams, @Query() query: CrawlPagesQuery): Promise<CrawlView & { pages: CrawlPageView[]; pages_limit: number; pages_offset: number }> {
    const state = await this.runs.owned(crawlRuns, auth, params.crawl_id);
    const view = crawlRuns.view(state);
    // The pages are documents of their own (the run's document keeps counts), in the order read.
    const pages = (await this.runs.items<CrawlPageView>(crawlRuns, params.crawl_id, query)).map(crawlPageView);
    return { ...view, pages, pages_limit: query.limit, pages_offset: query.offset };
  }

  @Post('map')
  @HttpCode(200)
  @ApiOperation({ summary: "A site's URLs from its sitemaps and links (robots.txt honoured); 1 credit" })
  @ApiOkResponse({ schema: ref('SiteMap') })
  async map(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: MapBody) {
    const { url, links, credits, usage } = await this.calls.send(
      subjects.map,
      { url: body.url, limit: body.limit, search: body.search ?? null, include_subdomains: body.include_subdomains, sitemap: body.sitemap },
      auth,
      req.id,
    );
    return { url, links, credits, usage };
  }
}
