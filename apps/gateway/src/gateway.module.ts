import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { ApiKeyGuard } from './auth/api-key.guard';
import { RateLimiter } from './auth/rate-limiter';
import { RUN_KINDS, type RunKind } from '@app/domain';
import { RunHttp } from './runs/run-http';
import { HTTP_RUN_KIND_LIST, HTTP_RUN_KINDS, type HttpRunKind, httpRunKinds } from './runs/run-kind-routes';
import { runRoutes } from './runs/run-routes';
import { GatewayDrain } from './streams/drain';
import { LiveStreams } from './streams/live-streams';
import { ExtractController } from './extract/extract.controller';
import { SearchController } from './search/search.controller';
import { TasksController } from './tasks/tasks.controller';
import { TaskGroupsController } from './tasks/task-groups.controller';
import { TaskGroups } from './tasks/task-groups';
import { ChatController } from './chat/chat.controller';
import { ModelsController } from './chat/models.controller';
import { MonitorsController } from './monitors/monitors.controller';
import { FindAllController } from './findall/findall.controller';
import { CrawlRoutes } from './crawl/crawl.routes';
import { HealthController } from './health/health.controller';
import { ServiceCalls } from './commands/service-calls';
import { KeyBudgetCheck } from './auth/key-budget-check';
import { IdempotencyGuard } from './http/idempotency';
import { HttpMetrics } from './http/metrics';
import { UsageController } from './usage/usage.controller';
import { McpController } from './mcp/mcp.controller';
import { FollowUps } from './runs/follow-ups';

/** The route files: the platform's, each run kind's creation and own verbs, and the MCP server. */
const CONTROLLERS = [
  HealthController,
  UsageController,
  SearchController,
  TaskGroupsController,
  TasksController,
  ChatController,
  ModelsController,
  MonitorsController,
  FindAllController,
  ExtractController,
  CrawlRoutes,
  McpController,
];

/**
 * The HTTP API: the route files, every run kind's run routes (from the list of kinds), the API key
 * and Idempotency-Key guards, metrics. Standalone imports this same module.
 */
@Module({
  providers: [
    // In this order: the key says whose Idempotency-Key it is.
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: IdempotencyGuard },
    { provide: HttpMetrics, useFactory: () => new HttpMetrics('gateway') },
    ApiKeyAuthenticator,
    RateLimiter,
    RunHttp,
    FollowUps,
    LiveStreams,
    GatewayDrain,
    ServiceCalls,
    KeyBudgetCheck,
    TaskGroups,
  ],
  exports: [ServiceCalls, ApiKeyAuthenticator, RunHttp],
})
export class GatewayModule {
  private static readonly built = new Map<readonly RunKind[], DynamicModule>();

  /**
   * `kinds`: the list of run kinds served (CoreModule.forRoot must be given the same list), each
   * served as its registration among `http` says (runs/run-kind-routes.ts). One module per list,
   * so a module importing it again shares its providers and routes.
   */
  static forRoot(kinds: readonly RunKind[] = RUN_KINDS, http: readonly HttpRunKind[] = HTTP_RUN_KINDS): DynamicModule {
    const known = GatewayModule.built.get(kinds);
    if (known) return known;
    const served = httpRunKinds(kinds, http);
    const module: DynamicModule = {
      module: GatewayModule,
      controllers: [...CONTROLLERS, ...served.map(runRoutes)],
      providers: [{ provide: HTTP_RUN_KIND_LIST, useValue: served }],
      exports: [HTTP_RUN_KIND_LIST],
    };
    GatewayModule.built.set(kinds, module);
    return module;
  }
}
