import { APIConnectionError } from './errors';
import { readSse } from './sse';
import { endpoint } from './endpoints';
import type { RequestOptions, Transport } from './transport';
import type { ChatBody, ChatCompletion, ChatCompletionChunk, History } from './types';

type ChatParams = Omit<ChatBody, 'stream'>;

/** OpenAI-shaped chat completions answered from web research (`/v1/chat/completions`). */
export class ChatCompletions {
  constructor(private readonly transport: Transport) {}

  /** The whole completion; with `stream: true`, its chunks as they are written, up to `data: [DONE]`. */
  create(body: ChatParams & { stream?: false | null }, options?: RequestOptions): Promise<ChatCompletion>;
  create(body: ChatParams & { stream: true }, options?: RequestOptions): Promise<AsyncGenerator<ChatCompletionChunk>>;
  async create(
    body: ChatParams & { stream?: boolean | null },
    options?: RequestOptions,
  ): Promise<ChatCompletion | AsyncGenerator<ChatCompletionChunk>> {
    if (!body.stream)
      return this.transport.json<ChatCompletion>({ ...endpoint('post', '/v1/chat/completions'), body, options });
    // Retries (429, 503) happen before the first byte; a stream cut later is not resumable (it is not a run's event stream).
    const opened = await this.transport.open({
      ...endpoint('post', '/v1/chat/completions'),
      body,
      accept: 'text/event-stream',
      options,
    });
    return chunks(opened.response.body!, opened.abort);
  }

  /** A completion by id, as recorded. */
  retrieve(id: string, options?: RequestOptions): Promise<ChatCompletion> {
    return this.transport.json({ ...endpoint('get', '/v1/chat/completions/{id}', { id }), options });
  }

  /** Every event of the completion's stream (audit). */
  history(id: string, options?: RequestOptions): Promise<History> {
    return this.transport.json({ ...endpoint('get', '/v1/chat/completions/{id}/history', { id }), options });
  }
}

async function* chunks(body: ReadableStream<Uint8Array>, abort: () => void): AsyncGenerator<ChatCompletionChunk> {
  try {
    for await (const frame of readSse(body)) {
      if (frame.data === '[DONE]') return;
      yield JSON.parse(frame.data) as ChatCompletionChunk;
    }
    throw new APIConnectionError('the chat completion stream ended before data: [DONE]');
  } finally {
    abort();
  }
}
