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
  typeof value === 'object' && value !== null && Array.isArray((value as ValidationIssue).loc) && typeof (value as ValidationIssue).msg === 'string';

/**
 * The APIError for an error answer. A body that is not the service's `{detail}` (a proxy's HTML
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
  return new APIError(status, detail, headers.get('x-request-id') ?? undefined, headers, body);
}
