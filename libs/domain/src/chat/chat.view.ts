import { SkuLineItemSchema } from '../charge/charge.events';
import { NotFound } from '../decider';
import { totalCredits } from '../pricing';
import { terminationOf } from '../run/run-budget';
import { publicStatus } from '../run/run.decider';
import { RUN_STATUSES } from '../run/run.events';
import { AnyObject, Nullable, type Static, StringEnum, Type } from '../schema';
import type { ChatState } from './chat.decider';
import { ChatSearchResultSchema } from './chat.events';

/** An OpenAI Chat Completions `chat.completion`, with the research beside `choices` (API.md). */
export const ChatCompletionSchema = Type.Object(
  {
    id: Type.String(),
    interaction_id: Type.String({
      description:
        "Not OpenAI's: the id a task or deep run's previous_interaction_id names to follow this completion (its id)",
    }),
    object: StringEnum(['chat.completion']),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(
      Type.Object({
        index: Type.Unsafe<0>(Type.Integer()),
        message: Type.Object({
          role: StringEnum(['assistant']),
          content: Type.String(),
          refusal: Type.Unsafe<null>(Nullable(Type.String())),
        }),
        finish_reason: StringEnum(['stop', 'length']),
        logprobs: Type.Unsafe<null>(Nullable(AnyObject())),
      }),
    ),
    usage: Type.Object({
      prompt_tokens: Type.Integer(),
      completion_tokens: Type.Integer(),
      total_tokens: Type.Integer(),
    }),
    citations: Type.Array(Type.String()),
    search_results: Type.Array(ChatSearchResultSchema),
    credits: Type.Number(),
    usage_items: Type.Array(SkuLineItemSchema),
    status: StringEnum(RUN_STATUSES, {
      description: "Not OpenAI's: the run's status, so a failed or cancelled completion says so",
    }),
    error: Nullable(Type.String()),
    termination_reason: Nullable(
      StringEnum(['budget_exhausted'], {
        description:
          "Not OpenAI's: budget_exhausted when its max_credits or its key's budget stopped it (charged only what was left); null otherwise",
      }),
    ),
  },
  { $id: 'ChatCompletion' },
);
export type ChatCompletion = Static<typeof ChatCompletionSchema>;

export const createdSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

export function chatCompletion(state: ChatState): ChatCompletion {
  if (state.status === 'absent') throw new NotFound('chat completion does not exist');
  const answer = state.progress.answer;
  const content = state.progress.chunks.join('');
  const prompt = answer?.prompt_tokens ?? 0;
  const completion = answer?.completion_tokens ?? 0;
  return {
    id: state.run_id,
    interaction_id: state.run_id,
    object: 'chat.completion',
    created: createdSeconds(state.requested_at),
    model: state.params.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        finish_reason: answer?.finish_reason ?? 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    citations: answer?.citations ?? [],
    search_results: answer?.search_results ?? [],
    credits: totalCredits(state.charged),
    usage_items: state.charged,
    status: publicStatus(state),
    error: state.status === 'failed' ? state.error : null,
    termination_reason: terminationOf(state),
  };
}
