import { type DynamicModule, Module } from '@nestjs/common';
import type { RunKind } from '@app/domain';
import { GatewayModule } from '../../../apps/gateway/src/gateway.module';
import { HTTP_RUN_KINDS, type HttpRunKind } from '../../../apps/gateway/src/runs/run-kind-routes';
import { echoRuns } from './echo.kind';
import { EchoExecutor } from './echo.executor';
import { EchoRoutes } from './echo.routes';

/** How the gateway serves the echo kind: its paths and tag (its view is a plain object in the document). */
export const echoHttp: HttpRunKind = {
  kind: echoRuns,
  routes: {
    tag: 'Echo',
    param: 'echo_id',
    list: { path: 'v1/echoes', key: 'echoes', defaultLimit: 10 },
    view: ['v1/echoes/:echo_id'],
    cancel: 'v1/echoes/:echo_id/cancel',
    history: 'v1/echoes/:echo_id/history',
    sse: 'v1/echoes/:echo_id/events',
    recorded: 'v1/echoes/:echo_id/recorded',
    socket: 'v1/echoes/:echo_id/ws',
  },
};

/** The gateway's registrations with the echo kind's. */
export const HTTP_RUN_KINDS_WITH_ECHO: readonly HttpRunKind[] = [...HTTP_RUN_KINDS, echoHttp];

/** What an app adds for the echo kind: its executor (found by the research worker) and its route file. */
@Module({})
export class EchoModule {
  static forKinds(kinds: readonly RunKind[]): DynamicModule {
    return {
      module: EchoModule,
      imports: [GatewayModule.forRoot(kinds, HTTP_RUN_KINDS_WITH_ECHO)],
      providers: [EchoExecutor],
      controllers: [EchoRoutes],
    };
  }
}
