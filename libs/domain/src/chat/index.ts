export * from './chat.events';
export * from './chat.decider';
export * from './chat.view';
export * from './chat.kind';
