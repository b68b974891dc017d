import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { contractRef } from '../openapi/contract-schemas';
import { CONFIG, type Config } from '@app/config';
import { subjects } from '@app/contracts';
import {
  crawlPageView,
  type CrawlPageView,
  crawlRuns,
  teamPagesBound,
  teamPagesDecider,
  teamPagesStream,
} from '@app/domain';
import { aggregateStream, EVENT_STORE, type EventStore, handleCommand } from '@app/eventstore';
import { tooManyRequests } from '@app/platform';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { AnswersWithin, REPLY_MARGIN_MS } from '../http/answer-wait';
import { RunHttp } from '../runs/run-http';
import { CrawlBody, CrawlIdParams, CrawlPagesQuery, MapBody } from './crawl.dto';
import {
  type CrawlIndexRemoved,
  CrawlIndexRemovedSchema,
  type CrawlRunWithPages,
  CrawlRunWithPagesSchema,
  type CrawlStarted,
  CrawlStartedSchema,
  type SiteMap,
  SiteMapSchema,
} from './crawl.responses';
import { maxCreditsParam } from '../runs/max-credits.field';

/**
 * The crawl kind's route file: creating a crawl and its view with a page of its pages (list,
 * summary, cancel, history and streams come from its registration); taking a crawl's pages out of
 * its team's index; and POST /v1/map.
 */
@ApiTags('Crawl')
@ApiBearerAuth()
@Controller('v1')
export class CrawlRoutes {
  constructor(
    private readonly runs: RunHttp,
    private readonly calls: ServiceCalls,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Post('crawl')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a crawl run: 202 {crawl_id, status}; pages arrive as page.fetched events' })
  @ApiAcceptedResponse({ schema: contractRef(CrawlStartedSchema) })
  async create(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: CrawlBody): Promise<CrawlStarted> {
    if (body.index) await this.assertRoomToIndex(auth);
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
      ...maxCreditsParam(body),
    });
    const view = await this.runs.viewAsRequested(crawlRuns, auth, id);
    return { crawl_id: view.crawl_id, status: view.status };
  }

  @Get('crawl/:crawl_id')
  @ApiOperation({
    summary: 'Retrieve a crawl run: status, counts and a page of its pages (limit, offset), in the order read',
  })
  @ApiOkResponse({ schema: contractRef(CrawlRunWithPagesSchema) })
  async view(
    @Auth() auth: AuthContext,
    @Param() params: CrawlIdParams,
    @Query() query: CrawlPagesQuery,
  ): Promise<CrawlRunWithPages> {
    const state = await this.runs.owned(crawlRuns, auth, params.crawl_id);
    const view = crawlRuns.view(state);
    // The pages are documents of their own (the run's document keeps counts), in the order read.
    const pages = (await this.runs.items<CrawlPageView>(crawlRuns, params.crawl_id, query)).map(crawlPageView);
    return { ...view, pages, pages_limit: query.limit, pages_offset: query.offset };
  }

  @Delete('crawl/:crawl_id/index')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Remove the crawl's pages from its team's search index (every replica); a crawl that indexed nothing removes 0",
  })
  @ApiOkResponse({ schema: contractRef(CrawlIndexRemovedSchema) })
  async removeFromIndex(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: CrawlIdParams,
  ): Promise<CrawlIndexRemoved> {
    // 404 for another team's crawl, as for every run.
    await this.runs.owned(crawlRuns, auth, params.crawl_id);
    const result = await handleCommand(
      this.events,
      teamPagesStream(auth.team_id),
      teamPagesDecider,
      { type: 'RemoveCrawlPages', team_id: auth.team_id, crawl_id: params.crawl_id },
      {
        metadata: { team_id: auth.team_id, key_id: auth.key_id, request_id: req.id, correlation_id: params.crawl_id },
        maxAttempts: 10,
      },
    );
    const removed = result.events.find((event) => event.type === 'TeamCrawlPagesRemoved');
    return { crawl_id: params.crawl_id, removed: removed ? (removed.data as { removed: number }).removed : 0 };
  }

  /**
   * A crawl that would index has room in its team's index: under MAX_INDEXED_PAGES_PER_TEAM, as
   * the team's stream holds it (every replica's crawls counted); otherwise a 429 naming the bound
   * and nothing is created. A crawl that fills the index on its way reads on without indexing.
   */
  private async assertRoomToIndex(auth: AuthContext): Promise<void> {
    const max = this.config.maxIndexedPagesPerTeam;
    const { state } = await aggregateStream(this.events, teamPagesStream(auth.team_id), teamPagesDecider);
    if (state.pages >= max) throw tooManyRequests(60, {}, teamPagesBound(max, state.pages));
  }

  @Post('map')
  @HttpCode(200)
  @AnswersWithin((_body, config) => config.mapCallTimeoutMs + REPLY_MARGIN_MS)
  @ApiOperation({ summary: "A site's URLs from its sitemaps and links (robots.txt honoured); 1 credit" })
  @ApiOkResponse({ schema: contractRef(SiteMapSchema) })
  async map(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: MapBody): Promise<SiteMap> {
    const { url, links, credits, usage } = await this.calls.send(
      subjects.map,
      {
        url: body.url,
        limit: body.limit,
        search: body.search ?? null,
        include_subdomains: body.include_subdomains,
        sitemap: body.sitemap,
      },
      auth,
      req.id,
      // The extraction service bounds the call (MAP_CALL_TIMEOUT_MS); the gateway waits that long and a margin.
      Math.max(this.config.busTimeoutMs, this.config.mapCallTimeoutMs + REPLY_MARGIN_MS),
    );
    return { url, links, credits, usage };
  }
}
