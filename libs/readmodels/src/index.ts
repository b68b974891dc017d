// The contract suite (jest globals) and the test event store are deliberately not exported.
export * from './read-store.port';
export * from './memory.read-store';
// The MongoDB adapter is not exported: openReadStore loads it (and the driver) only for a MongoDB URL.
export * from './open-read-store';
export * from './projection';
export * from './projector';
export * from './projections';
export { DEAD_LETTERS, type DeadLetter } from './dead-letters';
export * from './snapshots';
export * from './bson-limits';
