import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { type RestBackend, RestError, type RestResponse, type RunEvent, sseEvents } from '@app/mcp';

const parse = (text: string): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text.slice(0, 500) };
  }
};

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/**
 * The REST API in process, for the /mcp route: each operation is injected into the gateway's own
 * HTTP app with the caller's Authorization header, so its key check, rate limit, validation and
 * charges are the REST route's own. Each call carries the /mcp request's id with a suffix, so
 * the log lines of one tool call read together.
 */
export class InjectRestBackend implements RestBackend {
  private calls = 0;

  constructor(
    private readonly fastify: FastifyInstance,
    private readonly authorization: string,
    private readonly requestId: string,
  ) {}

  private headers(extra: Record<string, string>): Record<string, string> {
    this.calls += 1;
    return {
      authorization: this.authorization,
      'x-request-id': `${this.requestId.slice(0, 100)}.mcp${this.calls}`,
      ...extra,
    };
  }

  async call(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal): Promise<RestResponse> {
    const response = await this.fastify.inject({
      method,
      url: path,
      headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body !== undefined && { payload: JSON.stringify(body) }),
      signal,
    });
    return { status: response.statusCode, body: parse(response.body) };
  }

  async *events(path: string, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const response = await this.fastify.inject({
      method: 'GET',
      url: path,
      headers: this.headers({ accept: 'text/event-stream' }),
      payloadAsStream: true,
      signal,
    });
    const stream = response.stream();
    if (response.statusCode !== 200)
      throw new RestError(response.statusCode, (parse(await readAll(stream)) as { detail?: unknown } | null)?.detail);
    try {
      yield* sseEvents(stream);
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      stream.destroy();
    }
  }
}
