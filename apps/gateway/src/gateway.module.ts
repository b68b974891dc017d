import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { ApiKeyGuard } from './auth/api-key.guard';
import { RateLimiter } from './auth/rate-limiter';
import { RunHttp } from './runs/run-http';
import { LiveStreams } from './streams/live-streams';
import { ExtractController } from './extract/extract.controller';
import { SearchController } from './search/search.controller';
import { SearchesController } from './searches/searches.controller';
import { TasksController } from './tasks/tasks.controller';
import { ChatController } from './chat/chat.controller';
import { MonitorsController } from './monitors/monitors.controller';
import { FindAllController } from './findall/findall.controller';
import { HealthController } from './health/health.controller';
import { ServiceCalls } from './commands/service-calls';
import { IdempotencyGuard } from './http/idempotency';
import { HttpMetrics } from './http/metrics';
import { UsageController } from './usage/usage.controller';

/** The HTTP API: controllers, the API key and Idempotency-Key guards, metrics. Standalone imports this same module. */
@Module({
  controllers: [HealthController, UsageController, SearchController, SearchesController, TasksController, ChatController, MonitorsController, FindAllController, ExtractController],
  providers: [
    // In this order: the key says whose Idempotency-Key it is.
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: IdempotencyGuard },
    { provide: HttpMetrics, useFactory: () => new HttpMetrics('gateway') },
    ApiKeyAuthenticator,
    RateLimiter,
    RunHttp,
    LiveStreams,
    ServiceCalls,
  ],
  exports: [ServiceCalls, ApiKeyAuthenticator],
})
export class GatewayModule {}
