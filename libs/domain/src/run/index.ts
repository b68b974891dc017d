export * from './run.events';
export * from './run.decider';
export * from './run-kind';
export * from './research-progress';
export * from './run-budget';
export * from './follow-up-context';
