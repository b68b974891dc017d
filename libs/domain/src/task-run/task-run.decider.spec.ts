import { specFor, testContext } from '../testing/given-when-then';
import { taskRunDecider, type TaskRunCommand } from './task-run.decider';
import type { TaskOutput, TaskParams, TaskRunEvent } from './task-run.events';
import { outputFields, taskRunView } from './task-run.view';
import { taskRuns } from './task-run.kind';

const T0 = '2026-01-01T00:00:00.000Z';
const spec = specFor(taskRunDecider, () => testContext(T0));

const params = (over: Partial<TaskParams> = {}): TaskParams => ({
  task: 'Acme Robotics company profile',
  processor: 'core',
  output_schema: {
    type: 'json',
    json_schema: { type: 'object', properties: { founded_year: { type: 'integer' }, ceo: { type: 'string' } } },
  },
  metadata: { ticket: 'T-1' },
  webhook: null,
  ...over,
});
const output: TaskOutput = {
  output: { founded_year: 2014, ceo: 'Lena Okonkwo' },
  basis: [
    {
      field: 'founded_year',
      citations: [{ url: 'https://acme.test/about', title: 'About', excerpts: ['founded in 2014'] }],
      reasoning: 'stated',
      confidence: 'high',
    },
    {
      field: 'ceo',
      citations: [
        { url: 'https://acme.test/about', title: 'About', excerpts: ['Lena Okonkwo, Chief Executive Officer'] },
      ],
      reasoning: 'stated',
      confidence: 'high',
    },
  ],
  answer: 'founded_year: 2014; ceo: Lena Okonkwo',
  sources: ['https://acme.test/about'],
  read: ['https://acme.test/about'],
  considered: ['https://acme.test/about', 'https://acme.test/'],
  usage: {
    tool_calls: 6,
    search_queries: 4,
    pages_fetched: 2,
    tokens: { input: 0, output: 0 },
    planner_calls: 1,
    grader_calls: 4,
    synth_calls: 1,
    scratchpad_mode: null,
    scratchpad_chunks_indexed: 0,
    scratchpad_chunks_used: 0,
    scratchpad_searches: 0,
    scratchpad_tool_turns: 0,
  },
  steps: 12,
  report: null,
  findings: null,
  sources_detailed: null,
};

const requested = (p = params()): TaskRunEvent => ({
  type: 'TaskRunRequested',
  data: { task_id: 't1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params: p, requested_at: T0 },
});
const started: TaskRunEvent = {
  type: 'TaskRunStarted',
  data: { worker_id: 'w1', lease_until: '2026-01-01T00:00:15.000Z', started_at: T0, resumed: false },
};
const written: TaskRunEvent = { type: 'TaskOutputWritten', data: output };
const record = (over: Partial<TaskOutput> = {}): TaskRunCommand => ({
  type: 'RecordOutput',
  worker_id: 'w1',
  ...output,
  ...over,
});
const RUNNING = [requested(), started];

describe('task run decider', () => {
  describe('when absent', () => {
    it('requests a run', () =>
      spec([])
        .when({ type: 'RequestRun', run_id: 't1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params: params() })
        .then([requested()]));
    it('refuses an empty task', () =>
      spec([])
        .when({
          type: 'RequestRun',
          run_id: 't1',
          team_id: 'acme',
          key_id: 'k1',
          request_id: 'r1',
          params: params({ task: ' ' }),
        })
        .thenThrows({ refusal: 'invalid' }));
    it('refuses an unknown processor', () =>
      spec([])
        .when({
          type: 'RequestRun',
          run_id: 't1',
          team_id: 'acme',
          key_id: 'k1',
          request_id: 'r1',
          params: params({ processor: 'max' as never }),
        })
        .thenThrows({ refusal: 'invalid', message: /processor/ }));
  });

  describe('when running', () => {
    it('records the output', () => spec(RUNNING).when(record()).then([written]));
    it('records it once', () =>
      spec([...RUNNING, written])
        .when(record({ answer: 'other' }))
        .then([]));
    it('refuses more steps than the processor allows', () =>
      spec(RUNNING)
        .when(record({ steps: 13 }))
        .thenThrows({ refusal: 'invalid', message: /1 to 12/ }));
    it('base allows 4 steps', () =>
      spec([requested(params({ processor: 'base' })), started])
        .when(record({ steps: 5 }))
        .thenThrows({ refusal: 'invalid', message: /1 to 4/ }));
    it('refuses output from a worker that does not hold the run', () =>
      spec(RUNNING)
        .when(record({ worker_id: 'w2' } as never))
        .thenThrows({ refusal: 'conflict' }));
    it('cannot complete before the output is written', () =>
      spec(RUNNING)
        .when({ type: 'CompleteRun', worker_id: 'w1' })
        .thenThrows({ refusal: 'conflict', message: /no output/ }));
    it('completes, charging one credit per step', () =>
      spec([...RUNNING, written])
        .when({ type: 'CompleteRun', worker_id: 'w1' })
        .then([
          {
            type: 'CreditsCharged',
            data: {
              team_id: 'acme',
              request_id: 't1',
              items: [{ sku: 'sku_task_step', quantity: 12, credits: 12 }],
              credits: 12,
              at: T0,
            },
          },
          { type: 'TaskRunCompleted', data: { completed_at: T0 } },
        ]));
  });

  describe('view', () => {
    it('keeps output, basis, answer and URL lists empty until completed', () => {
      expect(taskRunView([...RUNNING, written])).toMatchObject({
        task_id: 't1',
        run_id: 't1',
        status: 'running',
        task: params().task,
        query: params().task,
        output: null,
        basis: [],
        answer: '',
        sources: [],
        read: [],
        considered: [],
        usage: null,
        credits: 0,
        fields: ['founded_year', 'ceo'],
      });
    });
    it('shows everything once completed, with credits and line items', () => {
      const charged: TaskRunEvent = {
        type: 'CreditsCharged',
        data: {
          team_id: 'acme',
          request_id: 't1',
          items: [{ sku: 'sku_task_step', quantity: 12, credits: 12 }],
          credits: 12,
          at: T0,
        },
      };
      const view = taskRunView([
        ...RUNNING,
        written,
        charged,
        { type: 'TaskRunCompleted', data: { completed_at: T0 } },
      ]);
      expect(view).toMatchObject({
        status: 'completed',
        output: output.output,
        basis: output.basis,
        answer: output.answer,
        credits: 12,
        usage_items: [{ sku: 'sku_task_step', quantity: 12, credits: 12 }],
        metadata: { ticket: 'T-1' },
        completedAt: T0,
      });
    });
    it('names one field `output` for text and auto outputs', () => {
      expect(outputFields({ type: 'text' })).toEqual(['output']);
      expect(outputFields({ type: 'auto' })).toEqual(['output']);
    });
    it('publishes the lifecycle and research facts, not the output fact', () => {
      const state = [...RUNNING, written].reduce(taskRunDecider.evolve, taskRunDecider.initialState);
      expect(taskRuns.publish(written, state)).toBeUndefined();
      expect(taskRuns.publish(started, state)).toEqual({
        event: 'run.started',
        data: { task_id: 't1', status: 'running', resumed: false },
      });
    });
  });
});
