import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './auth/api-key.guard';
import { HealthController } from './health/health.controller';
import { HttpMetrics } from './http/metrics';
import { UsageController } from './usage/usage.controller';

/** The HTTP API: controllers, the API key guard, metrics. Standalone imports this same module. */
@Module({
  controllers: [HealthController, UsageController],
  providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }, { provide: HttpMetrics, useFactory: () => new HttpMetrics('gateway') }],
})
export class GatewayModule {}
