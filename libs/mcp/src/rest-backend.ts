import { createParser } from 'eventsource-parser';

/** One answer of the REST API: its status and parsed JSON body. */
export interface RestResponse {
  status: number;
  body: unknown;
}

/** One public event of a run's SSE stream (API.md "Streams"). */
export interface RunEvent {
  id: string;
  event: string;
  data: unknown;
}

/**
 * The REST API as the MCP tools call it. Two back ends: the gateway's own HTTP app in process
 * (the /mcp route) and the service over HTTP (the stdio server). Either way a tool's work is the
 * REST operations themselves: their key check, rate limit, validation and charges.
 */
export interface RestBackend {
  /** A REST operation with a JSON body (or none). */
  call(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal): Promise<RestResponse>;
  /**
   * A run's server-sent events until the stream ends or `signal` aborts (the stream is then
   * closed). A refusal (not 200) is thrown as a RestError.
   */
  events(path: string, signal: AbortSignal): AsyncIterable<RunEvent>;
}

/** A REST answer of 4xx or 5xx: the status and the API's `detail` (a sentence, or the 422 list). */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(describeDetail(status, detail));
  }
}

/** The API's `detail` as one readable message: a 422 list becomes `field.path: message` lines. */
export function describeDetail(status: number, detail: unknown): string {
  if (typeof detail === 'string') return `${status}: ${detail}`;
  if (Array.isArray(detail)) {
    const lines = detail.map((item) => {
      const { loc, msg } = (item ?? {}) as { loc?: unknown[]; msg?: unknown };
      const where = Array.isArray(loc) ? loc.filter((part) => part !== 'body').join('.') : '';
      return `${where ? `${where}: ` : ''}${String(msg ?? 'invalid')}`;
    });
    return `${status}: ${lines.join('; ')}`;
  }
  return `${status}: the service answered ${status}`;
}

/** The body of a REST answer, or a RestError for a refusal. */
export function okBody(response: RestResponse): unknown {
  if (response.status >= 400)
    throw new RestError(response.status, (response.body as { detail?: unknown } | null)?.detail);
  return response.body;
}

/** Parses SSE frames from text chunks (a Node stream or a web stream, both async iterable). */
export async function* sseEvents(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<RunEvent> {
  const queue: RunEvent[] = [];
  const parser = createParser({
    onEvent: (message) => {
      let data: unknown = message.data;
      try {
        data = JSON.parse(message.data);
      } catch {
        // not JSON: kept as the text sent
      }
      queue.push({ id: message.id ?? '', event: message.event ?? 'message', data });
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of chunks) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (queue.length) yield queue.shift()!;
  }
}

/**
 * A signal that aborts with `signal` or after `ms`, and its release. (Not `AbortSignal.any`: on
 * Node 20 a signal it makes can be collected while a fetch still waits on it, and never fire.)
 */
export function deadline(signal: AbortSignal, ms: number): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, ms);
  signal.addEventListener('abort', abort, { once: true });
  if (signal.aborted) abort();
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
      abort();
    },
  };
}

/** Bounds of the HTTP back end: one answer's size and how long a plain call may take. */
export const HTTP_BACKEND_BOUNDS = { maxBodyBytes: 32 * 1024 * 1024, callTimeoutMs: 120_000 };

/**
 * The REST API of a running service over HTTP (the stdio MCP server): the given key on every
 * call; answers past HTTP_BACKEND_BOUNDS are refused rather than read.
 */
export class HttpRestBackend implements RestBackend {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  async call(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal): Promise<RestResponse> {
    const bounded = deadline(signal, HTTP_BACKEND_BOUNDS.callTimeoutMs);
    try {
      const response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.apiKey}`,
          Accept: 'application/json',
          ...(body !== undefined && { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: bounded.signal,
      });
      return { status: response.status, body: await boundedJson(response) };
    } finally {
      bounded.release();
    }
  }

  async *events(path: string, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const response = await fetch(`${this.base}${path}`, {
      headers: { Authorization: `Bearer ${this.apiKey}`, Accept: 'text/event-stream' },
      signal,
    });
    if (response.status !== 200 || !response.body)
      throw new RestError(response.status, ((await boundedJson(response)) as { detail?: unknown } | null)?.detail);
    try {
      yield* sseEvents(chunksOf(response.body));
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  }
}

/** A fetch body's chunks as they arrive; the body is cancelled when the reader stops early. */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

async function boundedJson(response: Response): Promise<unknown> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > HTTP_BACKEND_BOUNDS.maxBodyBytes) {
    await response.body?.cancel();
    throw new RestError(
      502,
      `the service's answer is ${declared} bytes; at most ${HTTP_BACKEND_BOUNDS.maxBodyBytes} are read`,
    );
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ? chunksOf(response.body) : []) {
    size += chunk.byteLength;
    if (size > HTTP_BACKEND_BOUNDS.maxBodyBytes) {
      await response.body?.cancel();
      throw new RestError(
        502,
        `the service's answer is over ${HTTP_BACKEND_BOUNDS.maxBodyBytes} bytes; at most that is read`,
      );
    }
    parts.push(chunk);
  }
  const text = Buffer.concat(parts).toString('utf8');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text.slice(0, 500) };
  }
}
