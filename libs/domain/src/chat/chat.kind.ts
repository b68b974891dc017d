import { lifecycleNames } from '../run/run.events';
import { teamStream } from '../team/team.events';
import { publishLifecycle, type RunKind } from '../run/run-kind';
import { chatDecider, chatRunKind, type ChatState } from './chat.decider';
import { CHAT_STREAM_PREFIX } from './chat.events';
import { type ChatCompletion, chatCompletion } from './chat.view';

/**
 * Chat completions as a run kind: queued, leased and resumed like any run, and counted against the
 * team's concurrent runs. They have no webhook and no list; the gateway reads them from the log.
 */
export const chatRuns: RunKind<ChatState, ChatCompletion, ChatCompletion> = {
  name: 'chat',
  prefix: chatRunKind.prefix,
  streamPrefix: CHAT_STREAM_PREFIX,
  idKey: chatRunKind.idKey,
  noun: 'Chat completion',
  collection: 'chat_completions',
  webhookType: 'chat_completion',
  eventTypes: [...Object.values(lifecycleNames(chatRunKind.prefix)), 'CreditsCharged', ...chatRunKind.progressEventTypes],
  decider: chatDecider,
  view: chatCompletion,
  listItem: chatCompletion,
  webhookSigner: (state) => teamStream(state.team_id),
  webhookUrl: () => null,
  publish(event, state) {
    if (state.status === 'absent') return undefined;
    if (event.type === 'ChatAnswerChunk') return { event: 'answer.chunk', data: event.data };
    return publishLifecycle(chatRuns, event, state, () => chatCompletion(state));
  },
};
