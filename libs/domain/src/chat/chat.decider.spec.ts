import { specFor, testContext } from '../testing/given-when-then';
import { chatDecider, type ChatCommand } from './chat.decider';
import type { ChatAnswer, ChatEvent, ChatParams } from './chat.events';
import { chatCompletion } from './chat.view';

const T0 = '2026-01-01T00:00:00.000Z';
const spec = specFor(chatDecider, () => testContext(T0));
const params: ChatParams = {
  model: 'core',
  budget: 'core',
  messages: [{ role: 'user', content: 'Who wrote Middlemarch?' }],
  max_tokens: null,
  temperature: null,
  response_format: { type: 'text' },
  stream: true,
};
const requested: ChatEvent = {
  type: 'ChatRunRequested',
  data: { id: 'chatcmpl-1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params, requested_at: T0 },
};
const started: ChatEvent = {
  type: 'ChatRunStarted',
  data: { worker_id: 'w1', lease_until: '2026-01-01T00:00:15.000Z', started_at: T0, resumed: false },
};
const RUNNING = [requested, started];
const chunk = (index: number, text: string): ChatEvent => ({ type: 'ChatAnswerChunk', data: { index, text } });
const answer: ChatAnswer = {
  citations: ['https://en.wikipedia.org/wiki/Middlemarch'],
  search_results: [],
  finish_reason: 'stop',
  prompt_tokens: 12,
  completion_tokens: 6,
  steps: 3,
};
const recordAnswer = (steps = 3): ChatCommand => ({ type: 'RecordAnswer', worker_id: 'w1', ...answer, steps });

describe('chat decider', () => {
  it('is requested only with a user message that says something', () => {
    spec([])
      .when({
        type: 'RequestRun',
        run_id: 'chatcmpl-1',
        team_id: 'acme',
        key_id: 'k1',
        request_id: 'r1',
        params: { ...params, messages: [{ role: 'user', content: '  ' }] },
      })
      .thenThrows({ refusal: 'invalid', message: /user message/ });
  });

  it('records the answer chunks in order, once each', () => {
    spec([...RUNNING, chunk(0, 'George ')])
      .when({ type: 'RecordAnswerChunk', worker_id: 'w1', index: 1, text: 'Eliot' })
      .then([chunk(1, 'Eliot')]);
  });

  it('takes a chunk recorded again (a resumed worker) as done', () => {
    spec([...RUNNING, chunk(0, 'George ')])
      .when({ type: 'RecordAnswerChunk', worker_id: 'w1', index: 0, text: 'George ' })
      .then([]);
  });

  it('refuses a chunk that skips one', () => {
    spec([...RUNNING, chunk(0, 'George ')])
      .when({ type: 'RecordAnswerChunk', worker_id: 'w1', index: 2, text: '.' })
      .thenThrows({ refusal: 'conflict' });
  });

  it('refuses progress from a worker that does not hold the run', () => {
    spec(RUNNING)
      .when({ type: 'RecordAnswerChunk', worker_id: 'w2', index: 0, text: 'x' })
      .thenThrows({ refusal: 'conflict', message: /held by worker w1/ });
  });

  it('refuses more steps than the budget allows', () => {
    spec(RUNNING)
      .when(recordAnswer(13))
      .thenThrows({ refusal: 'invalid', message: /steps must be 1 to 12 for core/ });
  });

  it('records the answer once', () => {
    const {
      type: _type,
      worker_id: _worker,
      ...data
    } = recordAnswer() as Extract<ChatCommand, { type: 'RecordAnswer' }>;
    spec(RUNNING)
      .when(recordAnswer())
      .then([{ type: 'ChatAnswered', data }]);
    spec([...RUNNING, { type: 'ChatAnswered', data }])
      .when(recordAnswer())
      .then([]);
  });

  it('cannot complete before it has an answer', () => {
    spec(RUNNING)
      .when({ type: 'CompleteRun', worker_id: 'w1' })
      .thenThrows({ refusal: 'conflict', message: /no answer yet/ });
  });

  it('completes charged one chat step per research step, and the completion shows the chunks joined', () => {
    const answered: ChatEvent = { type: 'ChatAnswered', data: answer };
    const charged: ChatEvent = {
      type: 'CreditsCharged',
      data: {
        team_id: 'acme',
        request_id: 'chatcmpl-1',
        items: [{ sku: 'sku_chat_step', quantity: 3, credits: 3 }],
        credits: 3,
        at: T0,
      },
    };
    const completed: ChatEvent = { type: 'ChatRunCompleted', data: { completed_at: T0 } };
    const given = [...RUNNING, chunk(0, 'George '), chunk(1, 'Eliot'), answered];
    spec(given).when({ type: 'CompleteRun', worker_id: 'w1' }).then([charged, completed]);
    const completion = chatCompletion(
      [...given, charged, completed].reduce(chatDecider.evolve, chatDecider.initialState),
    );
    expect(completion).toMatchObject({
      id: 'chatcmpl-1',
      status: 'completed',
      choices: [{ message: { role: 'assistant', content: 'George Eliot' }, finish_reason: 'stop' }],
      citations: answer.citations,
    });
  });
});
