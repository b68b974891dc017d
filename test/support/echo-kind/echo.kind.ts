import {
  defineRunKind,
  lineItem,
  type RunKindSpec,
  type RunState,
  teamStream,
  Conflict,
  Invalid,
  NotFound,
} from '@app/domain';

/**
 * A run kind of the tests' own, declared the way a real kind is (its folder: params, progress
 * facts, decider spec, view and registration) to prove one registration is all the machinery
 * needs. An echo run records each word of its text, then completes, charged one credit per word.
 */
export interface EchoParams {
  text: string;
  webhook: string | null;
}
export interface EchoProgress {
  words: string[];
}
export type EchoCommand = { type: 'RecordWord'; worker_id: string; index: number; word: string };
export type EchoEvent = { type: 'EchoWordRecorded'; data: { index: number; word: string } };

export const echoRunSpec: RunKindSpec<'EchoRun', 'echo_id', EchoParams, EchoProgress, EchoCommand, EchoEvent> = {
  prefix: 'EchoRun',
  idKey: 'echo_id',
  noun: 'echo run',
  validate(params) {
    if (typeof params.text !== 'string' || !params.text.trim()) throw new Invalid('text must hold a word');
  },
  progressEventTypes: ['EchoWordRecorded'],
  progress: {
    initial: { words: [] },
    decide(command, run) {
      if (command.index < run.progress.words.length) return [];
      if (command.index !== run.progress.words.length)
        throw new Conflict(`word ${command.index} comes after word ${run.progress.words.length - 1}`);
      return [{ type: 'EchoWordRecorded', data: { index: command.index, word: command.word } }];
    },
    evolve: (progress, event) =>
      event.data.index === progress.words.length ? { words: [...progress.words, event.data.word] } : progress,
    charge: (run) => [lineItem('sku_chat_step', Math.max(1, run.progress.words.length))],
  },
};

export type EchoState = RunState<EchoParams, EchoProgress>;

export interface EchoView {
  echo_id: string;
  status: string;
  text: string;
  words: string[];
  credits: number;
}

const echoView = (state: EchoState): EchoView => {
  if (state.status === 'absent') throw new NotFound('echo run not found');
  return {
    echo_id: state.run_id,
    status: state.status,
    text: state.params.text,
    words: state.progress.words,
    credits: state.charged.reduce((sum, item) => sum + item.credits, 0),
  };
};

/** The registration: everything the worker, bus, projection and webhooks need (echo.module.ts: how the gateway serves it). */
export const echoRuns = defineRunKind(echoRunSpec, {
  name: 'echo',
  streamPrefix: 'echo-',
  idPrefix: 'echo_',
  noun: 'Echo run',
  service: 'research',
  view: echoView,
  readModel: { collection: 'echo_runs', version: 1, listItem: echoView },
  webhook: { type: 'echo_run', url: (state) => state.params.webhook, signer: (state) => teamStream(state.team_id) },
  queued: true,

  queuedFields: (state) => ({ text: state.params.text }),
  publishProgress: (event) =>
    event.type === 'EchoWordRecorded' ? { event: 'echo.word', data: event.data } : undefined,
});
