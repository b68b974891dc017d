export * from './crawl.decider';
export * from './crawl.kind';
