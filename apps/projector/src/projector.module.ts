import { type DynamicModule, Module } from '@nestjs/common';
import type { Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { ProjectionModule } from '@app/platform';

/**
 * The projector service: with MONGO_URL it follows the log into MongoDB for every gateway.
 * Without it, each gateway projects into its own memory, and this service only answers health.
 */
@Module({})
export class ProjectorModule {
  static forConfig(config: Config): DynamicModule {
    return {
      module: ProjectorModule,
      imports: [HealthHandlerModule.for('projector'), ...(config.mongoUrl ? [ProjectionModule.forRoot()] : [])],
    };
  }
}
