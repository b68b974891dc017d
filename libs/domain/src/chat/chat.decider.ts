import { Conflict, Invalid } from '../decider';
import { lineItem } from '../pricing';
import {
  decideResearch,
  evolveResearch,
  initialResearch,
  isResearchCommand,
  renderItems,
  RESEARCH_EVENT_TYPES,
} from '../run/research-progress';
import { type RunCommand, runDecider, type RunKindSpec } from '../run/run.decider';
import type { RunState } from '../run/run.events';
import { PROCESSOR_BUDGETS } from '../task-run/task-run.events';
import type { ChatParams, ChatProgress, ChatProgressCommand, ChatProgressEvent } from './chat.events';

export const chatRunKind: RunKindSpec<
  'ChatRun',
  'id',
  ChatParams,
  ChatProgress,
  ChatProgressCommand,
  ChatProgressEvent
> = {
  prefix: 'ChatRun',
  idKey: 'id',
  noun: 'chat completion',
  validate(params) {
    if (!params.messages.some((m) => m.role === 'user' && m.content.trim()))
      throw new Invalid('messages must hold a user message');
    if (!(params.budget in PROCESSOR_BUDGETS)) throw new Invalid('budget must be base, core or ultra');
  },
  maxCredits: (params) => params.max_credits,
  progressEventTypes: [...RESEARCH_EVENT_TYPES, 'ChatAnswerChunk', 'ChatAnswered'],
  progress: {
    initial: { ...initialResearch, chunks: [], answer: null },
    decide(command, run) {
      if (isResearchCommand(command)) return decideResearch(command, run.progress);
      if (command.type === 'RecordAnswerChunk') {
        // Chunks are appended in order, once each: a resumed worker re-writing the answer adds only the missing ones.
        if (command.index < run.progress.chunks.length) return [];
        if (command.index !== run.progress.chunks.length)
          throw new Conflict(`chunk ${command.index} comes after chunk ${run.progress.chunks.length - 1}`);
        return [{ type: 'ChatAnswerChunk', data: { index: command.index, text: command.text } }];
      }
      if (command.type !== 'RecordAnswer') {
        // Unreachable by type; a command off the bus is checked all the same.
        const unexpected: { type: string } = command;
        throw new Error(`unknown command ${unexpected.type}`);
      }
      if (run.progress.answer) return [];
      const budget = PROCESSOR_BUDGETS[run.params.budget];
      if (!Number.isInteger(command.steps) || command.steps < 1 || command.steps > budget.steps) {
        throw new Invalid(`steps must be 1 to ${budget.steps} for ${run.params.budget}, got ${command.steps}`);
      }
      const { type: _type, worker_id: _worker, ...answer } = command;
      return [{ type: 'ChatAnswered', data: answer }];
    },
    evolve(progress, event) {
      if (event.type === 'ChatAnswerChunk')
        return event.data.index === progress.chunks.length
          ? { ...progress, chunks: [...progress.chunks, event.data.text] }
          : progress;
      if (event.type === 'ChatAnswered') return progress.answer ? progress : { ...progress, answer: event.data };
      return evolveResearch(progress, event);
    },
    charge(run) {
      if (!run.progress.answer) throw new Conflict('no answer yet');
      return [lineItem('sku_chat_step', run.progress.answer.steps), ...renderItems(run.progress)];
    },
  },
};

export type ChatState = RunState<ChatParams, ChatProgress>;
export type ChatCommand = RunCommand<ChatParams, ChatProgressCommand>;

export const chatDecider = runDecider(chatRunKind);
