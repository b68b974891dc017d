import { defineRunKind } from '../run/run-kind';
import { chatRunKind } from './chat.decider';
import { CHAT_STREAM_PREFIX } from './chat.events';
import { chatCompletion } from './chat.view';

/**
 * Chat completions as a run kind: queued, leased and resumed like any run, and counted against the
 * team's concurrent runs. They hold a live stream instead of waiting in the queue, have no webhook
 * and no list: the gateway reads them from the log.
 */
export const chatRuns = defineRunKind(chatRunKind, {
  name: 'chat',
  streamPrefix: CHAT_STREAM_PREFIX,
  idPrefix: 'chatcmpl-',
  noun: 'Chat completion',
  service: 'research',
  view: chatCompletion,
  queued: false,
  publishProgress: (event) =>
    event.type === 'ChatAnswerChunk' ? { event: 'answer.chunk', data: event.data } : undefined,
});
