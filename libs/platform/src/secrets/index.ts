export * from './api-keys';
export * from './secret-box';
