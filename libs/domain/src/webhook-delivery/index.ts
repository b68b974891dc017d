export * from './webhook-delivery.events';
export * from './webhook-delivery.decider';
