/**
 * Fastify side of FastAPI parity. Body parsing runs before any Nest code, and Nest's Fastify error
 * handler turns parser errors into `HttpException(message, status)` (losing the Fastify code, and
 * Fastify's own JSON parser keeps neither the text nor the error position). So the JSON parser is
 * replaced here, and the route table needed for FastAPI's 405 is recorded.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { ApiError, RequestValidationError } from './errors';
import { pythonJsonError, type PythonJsonOptions } from './python-json';

type Done = (err: Error | null, body?: unknown) => void;
type RawRequest = { headers: Record<string, string | string[] | undefined>; is404?: boolean };
type RouteEntry = { method: string; pattern: RegExp };

const ROUTES = Symbol('platform.http.routes');
const utf8 = new TextDecoder('utf-8', { fatal: true });

// Keys that could reach a prototype through a later merge; pydantic would ignore them as unknown fields.
const dropPoison = (key: string, value: unknown) =>
  key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)
    ? undefined
    : value;

/**
 * Parses a JSON body like Starlette's `request.json()` (= Python `json.loads(bytes)`): an empty body is
 * no body (FastAPI then reports the body `missing`), a UTF-8 BOM is skipped, undecodable bytes and
 * over-deep nesting are FastAPI's 400 "There was an error parsing the body", and malformed JSON is a
 * 422 `json_invalid` at Python's character position with Python's message.
 */
export function parseJsonBody(body: Buffer, opts: PythonJsonOptions = {}): unknown {
  if (body.length === 0) return undefined;
  const parseFailed = () => new ApiError(400, 'There was an error parsing the body');
  let text: string;
  try {
    text = utf8.decode(body); // TextDecoder drops a leading BOM, as Python's utf-8-sig detection does
  } catch {
    throw parseFailed();
  }
  try {
    return JSON.parse(text, dropPoison);
  } catch {
    let err;
    try {
      err = pythonJsonError(text, opts) ?? { msg: 'Expecting value', pos: 0 };
    } catch {
      throw parseFailed(); // stack exhausted: Python's RecursionError is answered the same way
    }
    throw new RequestValidationError([
      { type: 'json_invalid', loc: ['body', err.pos], msg: 'JSON decode error', input: {}, ctx: { error: err.msg } },
    ]);
  }
}

const jsonParser = (opts: PythonJsonOptions) => (req: RawRequest, body: Buffer, done: Done) => {
  // Fastify parses bodies even for unknown routes; FastAPI answers those 404/405 without reading them.
  if (req.is404) return done(null, undefined);
  try {
    done(null, parseJsonBody(body, opts));
  } catch (e) {
    done(e as Error);
  }
};

function routePattern(url: string): RegExp {
  const src = url.replace(/:[A-Za-z0-9_]+(?:\([^)]*\))?|\*|[.+?^${}()|[\]\\]/g, (m) =>
    m === '*' ? '.*' : m.startsWith(':') ? '[^/]+' : `\\${m}`,
  );
  return new RegExp(`^${src}$`);
}

type ParserFn = (req: RawRequest, body: Buffer, done: Done) => void;
type AddParser = (this: FastifyInstance, type: unknown, opts: unknown, fn?: unknown) => unknown;

// Any server/logger generics: the Fastify instance of any Nest app qualifies.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFastify = FastifyInstance<any, any, any, any, any>;

/**
 * Installs the FastAPI-compatible body parsing and the 405 route table. Pass the Nest app or its Fastify
 * instance, before `app.init()` (i.e. before listen/inject). Nest's adapter adds its own
 * application/json parser during init; the Fastify method it goes through is wrapped so that any
 * application/json registration (Nest's or a later one) keeps its options but parses with ours.
 */
export function installFastifyErrorHandling(
  target: AnyFastify | NestFastifyApplication,
  opts: PythonJsonOptions = {},
): void {
  const fastify = ('getHttpAdapter' in target ? target.getHttpAdapter().getInstance() : target) as FastifyInstance;
  const json = jsonParser(opts);
  // Framework seam: Fastify types addContentTypeParser as overloads; we wrap the one signature we call.
  const original = fastify.addContentTypeParser as unknown as AddParser;
  const add: AddParser = function (type, parserOpts, fn) {
    if (type !== 'application/json') return original.call(this, type, parserOpts, fn);
    const o = typeof parserOpts === 'function' ? {} : (parserOpts as object);
    if (this.hasContentTypeParser('application/json')) this.removeContentTypeParser('application/json');
    return original.call(this, type, { ...o, parseAs: 'buffer' }, json);
  };
  // Framework seam: the overloaded method is replaced by its one-signature wrapper.
  (fastify as unknown as { addContentTypeParser: AddParser }).addContentTypeParser = add;
  add.call(fastify, 'application/json', {});
  // FastAPI parses as JSON a body without Content-Type or with a `+json` type; other unknown types get 415.
  const fallback: ParserFn = (req, body, done) => {
    const type = req.headers['content-type'];
    if (type === undefined || req.is404 || /^application\/[^;\s]+\+json\s*(;|$)/i.test(String(type)))
      return json(req, body, done);
    done(new ApiError(415, `Unsupported Media Type: ${String(type)}`));
  };
  original.call(fastify, '*', { parseAs: 'buffer' }, fallback);

  const routes: RouteEntry[] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      // Fastify's automatic HEAD twins are implied by GET below, as Starlette adds HEAD to GET routes.
      if (method !== 'HEAD') routes.push({ method, pattern: routePattern(route.url) });
    }
  });
  // Framework seam: the route table rides on the Fastify instance under a symbol Fastify does not declare.
  (fastify as unknown as Record<symbol, RouteEntry[]>)[ROUTES] = routes;
}

/**
 * For a request no route answered: the methods of the first route whose path matches (Starlette's
 * 405 `Allow`), or undefined. Child Fastify contexts inherit the table through their prototype.
 */
export function allowedMethods(req: { server?: unknown; url?: string }): string[] | undefined {
  const routes = (req.server as Record<symbol, RouteEntry[] | undefined> | undefined)?.[ROUTES];
  const path = (req.url ?? '').split('?')[0];
  const hit = routes?.find((r) => r.pattern.test(path));
  if (!hit) return undefined;
  return hit.method === 'GET' ? ['GET', 'HEAD'] : [hit.method];
}
