import type { SkuLineItem } from '../charge/charge.events';
import { NotFound } from '../decider';
import { totalCredits } from '../pricing';
import { publicStatus } from '../run/run.decider';
import type { RunStatus } from '../run/run.events';
import type { ChatState } from './chat.decider';
import type { ChatSearchResult } from './chat.events';

/** An OpenAI Chat Completions `chat.completion`, with the research beside `choices` (API.md). */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: 0;
    message: { role: 'assistant'; content: string; refusal: null };
    finish_reason: 'stop' | 'length';
    logprobs: null;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  citations: string[];
  search_results: ChatSearchResult[];
  credits: number;
  usage_items: SkuLineItem[];
  /** Not OpenAI's: the run's status, so a failed or cancelled completion says so. */
  status: RunStatus;
  error: string | null;
}

export const createdSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

export function chatCompletion(state: ChatState): ChatCompletion {
  if (state.status === 'absent') throw new NotFound('chat completion does not exist');
  const answer = state.progress.answer;
  const content = state.progress.chunks.join('');
  const prompt = answer?.prompt_tokens ?? 0;
  const completion = answer?.completion_tokens ?? 0;
  return {
    id: state.run_id,
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
  };
}
