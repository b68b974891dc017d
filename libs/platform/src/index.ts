// The platform library: what every service shares (HTTP models and errors, secrets, the core and
// projection modules, booting a service, charging, team administration, rate limiting, logging).
export * from './http';
export * from './secrets';
export * from './core/boot';
export * from './core/core.module';
export * from './core/projection.module';
export * from './core/run-service';
export * from './core/health-server';
export * from './charging/charge-request';
export * from './teams/team-admin';
export * from './ratelimit/token-bucket';
export * from './logging/logger';
