export * from './monitor.events';
export * from './monitor.schedule';
export * from './monitor.decider';
export * from './monitor.view';
export * from './monitor.diff';
export * from './monitor.page';
