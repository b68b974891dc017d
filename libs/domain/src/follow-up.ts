import type { ChatState } from './chat/chat.decider';
import { boundedFollowUp, type FollowUpContext } from './run/follow-up-context';
import type { SearchRunState } from './search-run/search-run.decider';
import type { TaskRunState } from './task-run/task-run.decider';

type Ended<S> = Extract<S, { status: 'completed' }>;

/** Earlier questions first: a follow-up of a follow-up still knows the first subject. */
const asked = (follows: FollowUpContext | null | undefined, question: string) =>
  follows ? `${follows.question}\n${question}` : question;

/** What a follow-up of a completed task run starts from. */
export const followUpOfTask = (state: Ended<TaskRunState>): FollowUpContext =>
  boundedFollowUp({
    interaction_id: state.run_id,
    question: asked(state.params.follows, state.params.task),
    answer: state.progress.output?.answer ?? null,
    read: state.progress.output?.read ?? [],
  });

/** What a follow-up of a completed deep search starts from. */
export const followUpOfSearch = (state: Ended<SearchRunState>): FollowUpContext =>
  boundedFollowUp({
    interaction_id: state.run_id,
    question: asked(state.params.follows, state.params.prompt ?? state.params.queries.join('\n')),
    answer: state.progress.report?.report ?? null,
    read: state.progress.fetched.filter((page) => page.ok).map((page) => page.url),
  });

/** What a follow-up of a completed chat completion starts from: its user messages and its answer. */
export const followUpOfChat = (state: Ended<ChatState>): FollowUpContext =>
  boundedFollowUp({
    interaction_id: state.run_id,
    question: state.params.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n'),
    answer: state.progress.chunks.join('') || null,
    read: state.progress.fetched.filter((page) => page.ok).map((page) => page.url),
  });
