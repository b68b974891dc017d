export * from './derive-schema';
export * from './check-conditions';
export * from './list-pages';
