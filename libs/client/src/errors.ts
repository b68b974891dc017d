/** One entry of a 422's `detail` list (pydantic v2's shape, as the service answers it). */
export interface ValidationIssue {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** What the service said: a sentence, or for a 422 the list of what is wrong with the request. */
export type ErrorDetail = string | ValidationIssue[];

/**
 * An answer of the service with an error status. `detail` is the body's `detail` (the list for a
 * 422), `requestId` the `X-Request-Id` the service answered with (quote it to support: the
 * request's events and logs carry it).
 */
export class APIError extends Error {
  override readonly name: string = 'APIError';

  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
    readonly requestId: string | undefined,
    readonly headers: Headers,
    readonly body: unknown,
  ) {
    super(`${status} ${describe(detail)}${requestId ? ` (request ${requestId})` : ''}`);
  }
}

/** 400: the request could not be read (not JSON, a bad header). */
export class BadRequestError extends APIError {
  override readonly name: string = 'BadRequestError';
}
/** 401: no API key, or one the service does not know (revoked, expired). */
export class AuthenticationError extends APIError {
  override readonly name: string = 'AuthenticationError';
}
/** 402: a credit budget (the key's per day, month or total, or the run's `max_credits`) is spent; `detail` gives the budget, what was spent and when it resets. */
export class BudgetExceededError extends APIError {
  override readonly name: string = 'BudgetExceededError';
}
/** 403: the key may not do this. */
export class PermissionDeniedError extends APIError {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: no such run, monitor or route for this key's team. */
export class NotFoundError extends APIError {
  override readonly name: string = 'NotFoundError';
}
/** 409: the state refuses it now (a run already ended, an Idempotency-Key still being answered). */
export class ConflictError extends APIError {
  override readonly name: string = 'ConflictError';
}
/** 422: the request is invalid; `detail` lists each field and what is wrong with it. */
export class UnprocessableEntityError extends APIError {
  override readonly name: string = 'UnprocessableEntityError';
}
/** 429: too many requests, or too many queued runs; retried by the client after `Retry-After`. */
export class RateLimitError extends APIError {
  override readonly name: string = 'RateLimitError';
}
/** 500 and above: the service failed or is unavailable (503 is retried after `Retry-After`). */
export class InternalServerError extends APIError {
  override readonly name: string = 'InternalServerError';
}

type ErrorClass = new (...args: ConstructorParameters<typeof APIError>) => APIError;
const BY_STATUS: Readonly<Record<number, ErrorClass>> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: BudgetExceededError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The APIError subclass of a status: one per status the service answers, InternalServerError for any 5xx, APIError otherwise. */
export const errorClassOf = (status: number): ErrorClass =>
  BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);

/** The service could not be reached, or the connection dropped before an answer. */
export class APIConnectionError extends Error {
  override readonly name: string = 'APIConnectionError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No answer within the client's `timeout`. */
export class APITimeoutError extends APIConnectionError {
  override readonly name: string = 'APITimeoutError';

  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

const describe = (detail: ErrorDetail): string =>
  typeof detail === 'string' ? detail : detail.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ');

const isIssue = (value: unknown): value is ValidationIssue =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as ValidationIssue).loc) &&
  typeof (value as ValidationIssue).msg === 'string';

/**
 * The APIError for an error answer, of the subclass its status names. A body that is not the service's `{detail}` (a proxy's HTML
 * page, an empty body) keeps the status, with the status text (or the body's start) as detail.
 */
export function errorFromResponse(status: number, statusText: string, headers: Headers, text: string): APIError {
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  const given = typeof body === 'object' && body !== null ? (body as { detail?: unknown }).detail : undefined;
  const detail: ErrorDetail =
    typeof given === 'string'
      ? given
      : Array.isArray(given) && given.every(isIssue)
        ? given
        : statusText || (typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${status}`);
  const ErrorOfStatus = errorClassOf(status);
  return new ErrorOfStatus(status, detail, headers.get('x-request-id') ?? undefined, headers, body);
}
