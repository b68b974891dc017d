export * from './bus-client';
export * from './bus.module';
export * from './errors';
export * from './headers';
export * from './inprocess.transport';
export * from './large-payloads';
export * from './microservice-options';
export * from './wire';
