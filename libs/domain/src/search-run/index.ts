export * from './search-run.events';
export * from './search-run.decider';
export * from './search-run.view';
export * from './search-run.kind';
export * from './deep-search.bounds';
