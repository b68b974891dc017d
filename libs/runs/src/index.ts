export * from './run-registry';
export * from './run-worker';
export * from './run-commands';
export * from './run-kinds.token';
export * from './run-bus.handler';
export * from './service-run-worker';
export * from './scheduling';
export * from './key-budget-spend';
