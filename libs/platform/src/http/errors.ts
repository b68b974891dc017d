import { HttpException } from '@nestjs/common';

export type Loc = Array<string | number>;

/** One pydantic v2 error as FastAPI renders it (`errors(include_url=False)`); key order is pydantic's. */
export interface ErrorDetail {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/**
 * An error answered as FastAPI's `{"detail": ...}` with optional headers. It extends HttpException so
 * Nest's built-in handling (and any other filter) still sees the right status.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly detail: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super({ detail }, status);
  }
}

/**
 * An answer decided before the route ran (an Idempotency-Key's stored response): sent as it is,
 * status, body and headers, by the exception filter.
 */
export class StoredAnswer extends HttpException {
  constructor(
    status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super('stored answer', status);
  }
}

/** FastAPI's RequestValidationError: always 422 with the pydantic error list as `detail`. */
export class RequestValidationError extends ApiError {
  constructor(readonly errors: ErrorDetail[]) {
    super(422, errors);
  }
}

// Retry-After takes whole seconds; rounding up never invites a client back too early.
const retryAfter = (seconds: number) => String(Math.max(0, Math.ceil(seconds)));

export const notFound = (detail = 'Not Found') => new ApiError(404, detail);
export const conflict = (detail = 'Conflict') => new ApiError(409, detail);
export const unauthorized = (detail = 'Not authenticated') =>
  new ApiError(401, detail, { 'WWW-Authenticate': 'Bearer' });
export const tooManyRequests = (
  retryAfterS: number,
  headers: Record<string, string> = {},
  detail = 'Too Many Requests',
) => new ApiError(429, detail, { ...headers, 'Retry-After': retryAfter(retryAfterS) });
export const serviceUnavailable = (retryAfterS: number, detail = 'Service Unavailable') =>
  new ApiError(503, detail, { 'Retry-After': retryAfter(retryAfterS) });
