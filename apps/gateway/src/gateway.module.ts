import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ExtractController } from './extract/extract.controller';
import { SearchController } from './search/search.controller';
import { HealthController } from './health/health.controller';
import { ServiceCalls } from './commands/service-calls';
import { IdempotencyInterceptor } from './http/idempotency.interceptor';
import { HttpMetrics } from './http/metrics';
import { UsageController } from './usage/usage.controller';

/** The HTTP API: controllers, the API key guard, metrics. Standalone imports this same module. */
@Module({
  controllers: [HealthController, UsageController, SearchController, ExtractController],
  providers: [
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    { provide: HttpMetrics, useFactory: () => new HttpMetrics('gateway') },
    ServiceCalls,
  ],
  exports: [ServiceCalls],
})
export class GatewayModule {}
