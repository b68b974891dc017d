// The event log library. The contract suite (testing/event-store.contract.ts) uses jest globals, so it
// is not exported here: specs import it by path.
export * from './event-store.port';
export * from './sqlite.event-store';
// The EventStoreDB adapter is not exported: openEventStore loads it (and its gRPC client, some
// 0.2 s to load) only for an esdb:// URL.
export * from './open-event-store';
export * from './command-handler';
export * from './fold';
export * from './wire';
export * from './ids';
export * from './follow-all';
