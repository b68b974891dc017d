import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@app/bus';
import type { Config } from '@app/config';
import { RUN_KINDS, type RunKind } from '@app/domain';
import { HealthHandlerModule } from '@app/contracts';
import { CoreModule, ProjectionModule } from '@app/platform';
import { ExtractionModule } from '../../extraction/src/extraction.module';
import { FindallModule } from '../../findall/src/findall.module';
import { GatewayModule } from '../../gateway/src/gateway.module';
import { HTTP_RUN_KINDS, type HttpRunKind } from '../../gateway/src/runs/run-kind-routes';
import { MonitorsModule } from '../../monitors/src/monitors.module';
import { ResearchModule } from '../../research/src/research.module';
import { SearchModule } from '../../search/src/search.module';
import { WebhooksModule } from '../../webhooks/src/webhooks.module';

/** Every service module in one process over the in-process bus: the embedded default. */
@Module({})
export class StandaloneModule {
  /**
   * `kinds`: the list of run kinds (RUN_KINDS); `modules`: more modules beside the services', e.g.
   * a test's own run kind with its executor and route file; `http`: how the gateway serves each
   * kind (HTTP_RUN_KINDS, and a test kind's registration).
   */
  static forConfig(
    config: Config,
    kinds: readonly RunKind[] = RUN_KINDS,
    modules: DynamicModule['imports'] = [],
    http: readonly HttpRunKind[] = HTTP_RUN_KINDS,
  ): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [
        CoreModule.forRoot(config, kinds),
        BusModule.forRoot({ transport: 'inprocess', service: 'standalone', timeoutMs: config.busTimeoutMs }),
        ProjectionModule.forRoot(),
        HealthHandlerModule.for('projector'),
        GatewayModule.forRoot(kinds, http),
        SearchModule,
        ResearchModule,
        FindallModule,
        MonitorsModule,
        ExtractionModule,
        WebhooksModule,
        ...modules,
      ],
    };
  }
}
