// The event log library. The contract suite (testing/event-store.contract.ts) uses jest globals, so it
// is not exported here: specs import it by path.
export * from './event-store.port';
export * from './sqlite.event-store';
export * from './esdb.event-store';
export * from './open-event-store';
export * from './command-handler';
export * from './fold';
export * from './wire';
export * from './ids';
export * from './follow-all';
