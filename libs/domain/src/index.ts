export * from './decider';
export * from './team/team.events';
export * from './team/team.decider';
export * from './charge/charge.events';
export * from './charge/charge.decider';
export * from './idempotency/idempotency.decider';
export * from './search-run';
export * from './webhook-delivery';
