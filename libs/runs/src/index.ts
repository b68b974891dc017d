export * from './run-registry';
export * from './run-worker';
export * from './run-commands';
export * from './service-run-worker';
