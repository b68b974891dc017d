import { maxCreditsParam } from '../runs/max-credits.field';
import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { contractRef } from '../openapi/contract-schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG, type Config } from '@app/config';
import {
  type ChatCompletion,
  ChatCompletionSchema,
  chatCompletion,
  type ChatParams,
  chatRuns,
  type ChatState,
  createdSeconds,
  lifecycleNames,
  streamOf,
  TASK_PROCESSORS,
} from '@app/domain';
import { EVENT_STORE, type EventStore, evolveRecorded } from '@app/eventstore';
import { ApiError } from '@app/platform';
import { AnswersWithin } from '../http/answer-wait';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { LiveStreams } from '../streams/live-streams';
import { openSse } from '../streams/sse-writer';
import { RunHttp } from '../runs/run-http';
import { ChatBody } from './chat.dto';

/** How long a non-streamed completion may take before the client is told so (OpenAI's clients wait 10 minutes). */
const CHAT_WAIT_MS = 600_000;
const BUDGETS = new Set<string>(TASK_PROCESSORS);

/**
 * OpenAI-compatible chat completions grounded in web research (API.md "Chat completion"). The
 * completion is a run of kind chat: the gateway requests it over the bus, then follows its stream
 * in the event log (answer chunks as they are recorded), so no bus timeout cuts a long answer.
 */
@ApiTags('Chat')
@ApiBearerAuth()
@Controller('v1/chat/completions')
export class ChatController {
  constructor(
    private readonly runs: RunHttp,
    private readonly live: LiveStreams,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Post()
  // As OpenAI: a completion is answered 200, not Nest's default 201 for a POST (API.md).
  @HttpCode(200)
  @AnswersWithin(() => CHAT_WAIT_MS)
  @ApiOperation({
    summary: 'Chat completion: answers the last user message from web research, with citations and search_results',
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({
    description: 'A chat.completion (JSON), or with stream true chat.completion.chunk server-sent events',
    schema: contractRef(ChatCompletionSchema),
  })
  async complete(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest & FastifyRequest,
    @Body() body: ChatBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ChatCompletion | undefined> {
    const params: ChatParams = {
      model: body.model,
      budget: (BUDGETS.has(body.model) ? body.model : 'core') as ChatParams['budget'],
      messages: body.messages,
      max_tokens: body.max_tokens ?? body.max_completion_tokens ?? null,
      temperature: body.temperature ?? null,
      response_format: body.response_format ?? { type: 'text' },
      stream: body.stream,
      ...maxCreditsParam(body),
    };
    // The answer is awaited or streamed: a live stream of the key's, taken before anything starts.
    const release = this.live.take(auth.key_id);
    try {
      const id = await this.runs.request(chatRuns, auth, req.id, params);
      const gone = new AbortController();
      req.raw.once('close', () => gone.abort());
      if (body.stream) {
        await this.stream(id, params, req.id, reply, gone.signal, body.stream_options?.include_usage === true);
        return undefined;
      }
      return await this.answer(auth, id, gone.signal);
    } finally {
      release();
    }
  }

  /** The whole completion once its run ends (504 past CHAT_WAIT_MS, 502 when it failed). */
  private async answer(auth: AuthContext, id: string, signal: AbortSignal): Promise<ChatCompletion> {
    const ended = await this.runs.waitForEnd(chatRuns, id, CHAT_WAIT_MS, signal);
    if (ended === undefined)
      throw new ApiError(
        504,
        `Chat completion ${id} took longer than ${CHAT_WAIT_MS / 1000} s; read it later at /v1/chat/completions/${id}`,
      );
    const completion = chatCompletion(await this.runs.fromLog(chatRuns, auth, id));
    if (completion.status !== 'completed')
      throw new ApiError(502, `Chat completion ${id} ${completion.status}: ${completion.error ?? 'no answer'}`);
    return completion;
  }

  /** OpenAI's stream: a role chunk at once, a content chunk per recorded answer chunk, a last chunk with the research and usage, then [DONE]. */
  private async stream(
    id: string,
    params: ChatParams,
    requestId: string,
    reply: FastifyReply,
    signal: AbortSignal,
    includeUsage: boolean,
  ): Promise<void> {
    // OpenAI's stream starts with its first chunk, not a comment.
    const sse = openSse(reply, requestId, this.config.streamKeepAliveSeconds, '');
    const send = (data: unknown) => sse.write(`data: ${JSON.stringify(data)}\n\n`);
    const subscription = this.events.subscribeToStream(streamOf(chatRuns, id));
    const onAbort = () => void subscription.close();
    signal.addEventListener('abort', onAbort, { once: true });
    const names = lifecycleNames(chatRuns.prefix);
    let base: Record<string, unknown> | undefined;
    let state: ChatState = chatRuns.decider.initialState;
    try {
      for await (const event of subscription) {
        state = evolveRecorded(chatRuns.decider, state, event);
        if (state.status === 'absent') continue;
        if (!base) {
          base = {
            id,
            object: 'chat.completion.chunk',
            created: createdSeconds(state.requested_at),
            model: params.model,
            system_fingerprint: null,
          };
          await send({
            ...base,
            choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null }],
          });
        }
        if (event.type === 'ChatAnswerChunk') {
          await send({
            ...base,
            choices: [
              {
                index: 0,
                delta: { content: (event.data as { text: string }).text },
                finish_reason: null,
                logprobs: null,
              },
            ],
          });
        } else if (event.type === names.completed) {
          const done = chatCompletion(state);
          await send({
            ...base,
            choices: [{ index: 0, delta: {}, finish_reason: done.choices[0]!.finish_reason, logprobs: null }],
            citations: done.citations,
            search_results: done.search_results,
            usage: done.usage,
            credits: done.credits,
            usage_items: done.usage_items,
          });
          // As OpenAI with stream_options.include_usage: one more chunk, with the usage and no choices.
          if (includeUsage) await send({ ...base, choices: [], usage: done.usage });
          break;
        } else if (event.type === names.failed || event.type === names.cancelled) {
          const ended = chatCompletion(state);
          await send({
            error: {
              message: `Chat completion ${id} ${ended.status}: ${ended.error ?? 'no answer'}`,
              type: 'server_error',
              code: null,
            },
          });
          break;
        }
      }
      if (!signal.aborted) await sse.write('data: [DONE]\n\n');
    } finally {
      signal.removeEventListener('abort', onAbort);
      await subscription.close();
      sse.end();
    }
  }
}
