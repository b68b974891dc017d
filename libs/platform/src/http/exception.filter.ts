import { STATUS_CODES } from 'node:http';
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { errorCodes } from 'fastify';
import { refusalStatus } from '@app/bus';
import { DomainError } from '@app/domain';
import { ApiError, StoredAnswer } from './errors';
import { allowedMethods } from './fastify';

type Reply = {
  sent?: boolean;
  status?: (code: number) => Reply;
  headers?: (h: Record<string, string>) => Reply;
  send?: (body: Buffer) => unknown;
  headersSent?: boolean;
  statusCode?: number;
  setHeader?: (k: string, v: string) => void;
  end?: (body: string) => void;
};
type Req = {
  method?: string;
  url?: string;
  server?: { initialConfig?: { bodyLimit?: number } };
  routeOptions?: { bodyLimit?: number };
  headers?: Record<string, unknown>;
  is404?: boolean;
};
type Answer = { status: number; detail: unknown; headers?: Readonly<Record<string, string>> };

const BODY_ERRORS = [
  'FST_ERR_CTP_BODY_TOO_LARGE',
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
] as const;
type BodyErrorCode = (typeof BODY_ERRORS)[number];

// Nest rewraps Fastify errors as HttpException(message, statusCode); the code only survives through
// the message, so it is recognised by Fastify's own (status, message) pairs rather than copied strings.
const WRAPPED = new Map<string, BodyErrorCode>(
  BODY_ERRORS.map((code) => {
    const e = new errorCodes[code]();
    return [`${e.statusCode} ${e.message}`, code];
  }),
);

function fastifyCode(e: unknown): BodyErrorCode | undefined {
  const code = (e as { code?: unknown })?.code;
  if ((BODY_ERRORS as readonly unknown[]).includes(code)) return code as BodyErrorCode;
  if (e instanceof HttpException) return WRAPPED.get(`${e.getStatus()} ${e.message}`);
  return undefined;
}

/** FastAPI puts HTTPException.detail under "detail"; Nest's exceptions keep it as `message`. */
function httpDetail(e: HttpException): unknown {
  const r = e.getResponse();
  if (typeof r === 'string') return r;
  if (r && typeof r === 'object' && 'detail' in r) return (r as { detail: unknown }).detail;
  if (r && typeof r === 'object' && 'message' in r) return (r as { message: unknown }).message;
  return STATUS_CODES[e.getStatus()];
}

/**
 * Global filter answering every error in FastAPI's shape (HTTP apps only). Register it globally, with
 * `app.useGlobalFilters(new ApiExceptionFilter())` before `app.init()` or as an APP_FILTER provider:
 * body-parser and unknown-route errors happen before any route handler and reach filters only through
 * the Fastify error/404 handlers Nest builds at init from the global filters.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Req>();
    if (exception instanceof StoredAnswer) {
      send(http.getResponse<Reply>(), exception.getStatus(), JSON.stringify(exception.body ?? null), exception.headers);
      return;
    }
    const { status, detail, headers } = this.answer(exception, req);
    send(http.getResponse<Reply>(), status, JSON.stringify({ detail }), headers ?? {});
  }

  private answer(e: unknown, req: Req): Answer {
    if (e instanceof ApiError) return { status: e.getStatus(), detail: e.detail, headers: e.headers };
    // A domain refusal (NotFound, Conflict, Invalid) thrown in this process: the bus's table gives its status.
    if (e instanceof DomainError) return refusalStatus(e) ?? { status: 500, detail: 'Internal Server Error' };
    const code = fastifyCode(e);
    // Fastify parses the body before its 404 handler; FastAPI never reads it for an unknown route.
    if (code && req.is404) return this.routeNotFound(req);
    switch (code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE': {
        const limit = req.routeOptions?.bodyLimit ?? req.server?.initialConfig?.bodyLimit;
        return { status: 413, detail: `Request body too large: limit is ${limit} bytes` };
      }
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return { status: 415, detail: `Unsupported Media Type: ${String(req.headers?.['content-type'] ?? '')}` };
      // The two below only happen without installFastifyErrorHandling(): Fastify's parser keeps no
      // position, so json_invalid cannot name one; an empty JSON body is FastAPI's missing body.
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return {
          status: 422,
          detail: [
            {
              type: 'json_invalid',
              loc: ['body', 0],
              msg: 'JSON decode error',
              input: {},
              ctx: { error: 'Expecting value' },
            },
          ],
        };
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return { status: 422, detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
    }
    if (e instanceof HttpException) {
      const status = e.getStatus();
      // Nest's router answers unknown routes with NotFoundException("Cannot GET /x").
      if (status === 404 && /^Cannot [A-Z]+ /.test(e.message)) return this.routeNotFound(req);
      if (status < 500) return { status, detail: httpDetail(e) };
      this.log(e, req);
      return { status, detail: STATUS_CODES[status] ?? 'Internal Server Error' };
    }
    // Any other Fastify client error (e.g. a Content-Length mismatch) reached us unwrapped.
    const fst = e as { code?: unknown; statusCode?: unknown; message?: unknown };
    if (
      typeof fst?.code === 'string' &&
      fst.code.startsWith('FST_') &&
      typeof fst.statusCode === 'number' &&
      fst.statusCode < 500
    ) {
      return { status: fst.statusCode, detail: String(fst.message) };
    }
    this.log(e, req);
    return { status: 500, detail: 'Internal Server Error' };
  }

  private routeNotFound(req: Req): Answer {
    const allow = allowedMethods(req);
    return allow
      ? { status: 405, detail: 'Method Not Allowed', headers: { Allow: allow.join(', ') } }
      : { status: 404, detail: 'Not Found' };
  }

  /** Method and path only: headers (Authorization) and the query string (api keys) stay out of logs. */
  private log(e: unknown, req: Req): void {
    const where = `${req.method ?? '?'} ${(req.url ?? '').split('?')[0]}`;
    this.logger.error(
      `${where} failed: ${e instanceof Error ? e.message : String(e)}`,
      e instanceof Error ? e.stack : undefined,
    );
  }
}

function send(res: Reply, status: number, body: string, headers: Readonly<Record<string, string>>): void {
  const json = { ...headers, 'content-type': 'application/json' };
  if (typeof res.status === 'function' && typeof res.send === 'function') {
    if (res.sent) return;
    // A Buffer keeps Content-Type exactly "application/json" (FastAPI's); Fastify appends a charset to strings.
    res.status(status).headers!(json).send!(Buffer.from(body));
    return;
  }
  // A raw Node response (e.g. an error raised in middleware).
  if (res.headersSent || !res.setHeader || !res.end) return;
  res.statusCode = status;
  for (const [k, v] of Object.entries(json)) res.setHeader(k, v);
  res.end(body);
}
