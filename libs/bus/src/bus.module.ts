import {
  DynamicModule,
  type InjectionToken,
  Module,
  ModuleMetadata,
  type OptionalFactoryDependency,
} from '@nestjs/common';
import { BUS_OPTIONS, BusClient, BusModuleOptions } from './bus-client';

export interface BusModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's FactoryProvider takes the injected values untyped
  useFactory: (...args: any[]) => BusModuleOptions | Promise<BusModuleOptions>;
}

/** Global, so any feature module can inject BusClient once the app's root module imports BusModule.forRoot. */
@Module({})
export class BusModule {
  static forRoot(options: BusModuleOptions): DynamicModule {
    return {
      module: BusModule,
      global: true,
      providers: [{ provide: BUS_OPTIONS, useValue: options }, BusClient],
      exports: [BusClient, BUS_OPTIONS],
    };
  }

  /** For options derived from injected config, e.g. `{ inject: [CONFIG], useFactory: (c: Config) => ({ transport: c.bus, ... }) }`. */
  static forRootAsync(options: BusModuleAsyncOptions): DynamicModule {
    return {
      module: BusModule,
      global: true,
      imports: options.imports ?? [],
      providers: [{ provide: BUS_OPTIONS, inject: options.inject ?? [], useFactory: options.useFactory }, BusClient],
      exports: [BusClient, BUS_OPTIONS],
    };
  }
}
