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
import {
  PROCESSOR_BUDGETS,
  TASK_PROCESSORS,
  type TaskParams,
  type TaskRunProgress,
  type TaskRunProgressCommand,
  type TaskRunProgressEvent,
} from './task-run.events';

export const taskRunKind: RunKindSpec<
  'TaskRun',
  'task_id',
  TaskParams,
  TaskRunProgress,
  TaskRunProgressCommand,
  TaskRunProgressEvent
> = {
  prefix: 'TaskRun',
  idKey: 'task_id',
  noun: 'task run',
  // Invariants the run relies on; the gateway reports field errors (with their bounds) first.
  maxCredits: (params) => params.max_credits,
  validate(params) {
    if (typeof params.task !== 'string' || params.task.trim().length === 0)
      throw new Invalid('task must be at least 1 character');
    if (!TASK_PROCESSORS.includes(params.processor))
      throw new Invalid(`processor must be one of ${TASK_PROCESSORS.join(', ')}`);
    if (!['json', 'text', 'auto'].includes(params.output_schema?.type))
      throw new Invalid('output_schema.type must be json, text or auto');
  },
  progressEventTypes: [...RESEARCH_EVENT_TYPES, 'TaskOutputWritten'],
  progress: {
    initial: { ...initialResearch, output: null },
    decide(command, run) {
      if (isResearchCommand(command)) return decideResearch(command, run.progress);
      if (command.type !== 'RecordOutput') {
        // Unreachable by type; a command off the bus is checked all the same.
        const unexpected: { type: string } = command;
        throw new Error(`unknown command ${unexpected.type}`);
      }
      if (run.progress.output) return [];
      const budget = PROCESSOR_BUDGETS[run.params.processor];
      if (!Number.isInteger(command.steps) || command.steps < 1 || command.steps > budget.steps) {
        throw new Invalid(
          `steps must be 1 to ${budget.steps} for processor ${run.params.processor}, got ${command.steps}`,
        );
      }
      const { type: _type, worker_id: _worker, ...output } = command;
      return [{ type: 'TaskOutputWritten', data: output }];
    },
    evolve(progress, event) {
      if (event.type === 'TaskOutputWritten') return progress.output ? progress : { ...progress, output: event.data };
      return evolveResearch(progress, event);
    },
    charge(run) {
      if (!run.progress.output) throw new Conflict('no output yet');
      return [lineItem('sku_task_step', run.progress.output.steps), ...renderItems(run.progress)];
    },
  },
};

export type TaskRunState = RunState<TaskParams, TaskRunProgress>;
export type TaskRunCommand = RunCommand<TaskParams, TaskRunProgressCommand>;

export const taskRunDecider = runDecider(taskRunKind);
