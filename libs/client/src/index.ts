export { WebResearch } from './client';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  BudgetExceededError,
  ConflictError,
  type ErrorDetail,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './errors';
export { type Page, PagePromise } from './pagination';
export type { ClientOptions, RequestOptions } from './transport';
export { type GroupEvent, type RunEvent, type StreamOptions, TERMINAL_EVENTS } from './run-stream';
export type { TaskGroupEventsQuery, TaskGroupRunsQuery } from './task-groups';
export type * from './types';
export type { components, operations, paths } from './openapi';
