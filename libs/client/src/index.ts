export { WebResearch } from './client';
export { APIConnectionError, APIError, APITimeoutError, type ErrorDetail, type ValidationIssue } from './errors';
export type { ClientOptions, RequestOptions } from './transport';
export { type RunEvent, type StreamOptions, TERMINAL_EVENTS } from './run-stream';
export type * from './types';
export type { components, operations, paths } from './openapi';
