import { type DynamicModule, Module } from '@nestjs/common';
import type { RunKind } from '@app/domain';
import { GatewayModule } from '../../../apps/gateway/src/gateway.module';
import { EchoExecutor } from './echo.executor';
import { EchoRoutes } from './echo.routes';

/** What an app adds for the echo kind: its executor (found by the research worker) and its route file. */
@Module({})
export class EchoModule {
  static forKinds(kinds: readonly RunKind[]): DynamicModule {
    return {
      module: EchoModule,
      imports: [GatewayModule.forRoot(kinds)],
      providers: [EchoExecutor],
      controllers: [EchoRoutes],
    };
  }
}
