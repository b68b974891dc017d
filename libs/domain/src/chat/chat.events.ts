import type { DomainEvent } from '../decider';
import type { ResearchCommand, ResearchEvent, ResearchProgress } from '../run/research-progress';
import type { LifecycleEvent } from '../run/run.events';
import { Nullable, type Static, Type } from '../schema';
import type { TaskProcessor } from '../task-run/task-run.events';

/**
 * Events of a `chat-<id>` stream: one chat completion (API.md "Chat completion"), run by the
 * shared run machinery. Progress is the research pipeline's facts, the answer in chunks as it is
 * written (what a streaming client is sent), and the answer's citations and counts.
 */
export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string;
}

export type ChatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown> } };

export interface ChatParams {
  /** As the client sent it (echoed); `budget` says which processor's budget it chose. */
  model: string;
  budget: TaskProcessor;
  messages: ChatMessage[];
  max_tokens: number | null;
  temperature: number | null;
  response_format: ChatResponseFormat;
  stream: boolean;
  /** The completion's budget in credits (API.md "Budgets"); absent or null: none. */
  max_credits?: number | null;
}

export const ChatSearchResultSchema = Type.Object(
  {
    url: Type.String(),
    title: Type.String(),
    snippet: Type.String(),
    excerpts: Type.Array(Type.String()),
    date: Nullable(Type.String()),
    domain: Type.String(),
    category: Nullable(Type.String()),
    score: Type.Number(),
  },
  { $id: 'ChatSearchResult' },
);
export type ChatSearchResult = Static<typeof ChatSearchResultSchema>;

export interface ChatAnswer {
  citations: string[];
  search_results: ChatSearchResult[];
  finish_reason: 'stop' | 'length';
  prompt_tokens: number;
  completion_tokens: number;
  /** Research steps taken: one credit each. */
  steps: number;
}

export type ChatAnswerChunk = DomainEvent<'ChatAnswerChunk', { index: number; text: string }>;
export type ChatAnswered = DomainEvent<'ChatAnswered', ChatAnswer>;

export type ChatProgressEvent = ResearchEvent | ChatAnswerChunk | ChatAnswered;
export type ChatProgressCommand =
  | ResearchCommand
  | { type: 'RecordAnswerChunk'; worker_id: string; index: number; text: string }
  | ({ type: 'RecordAnswer'; worker_id: string } & ChatAnswer);

export interface ChatProgress extends ResearchProgress {
  chunks: string[];
  answer: ChatAnswer | null;
}

export type ChatEvent = LifecycleEvent<'ChatRun', 'id', ChatParams> | ChatProgressEvent;

export const CHAT_STREAM_PREFIX = 'chat-';
export const chatStream = (id: string): string => `${CHAT_STREAM_PREFIX}${id}`;
