export * from './task-run.events';
export * from './task-run.decider';
export * from './task-run.view';
export * from './task-run.kind';
