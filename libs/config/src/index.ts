export * from './config';
export * from './index-seeds';
