export * from './findall.events';
export * from './findall.decider';
export * from './findall.view';
export * from './findall.kind';
