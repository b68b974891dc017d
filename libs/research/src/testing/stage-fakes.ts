import type { Finding } from '@app/domain';
import type { TokenUsage } from '../research-model.port';
import type { FollowUp, ResearchModel } from '../research-model.port';
import type { ReadDocument, ResearchInput, ResearchPorts, ResearchProgress, SearchHit } from '../stages/ports';
import { initialState, type ResearchState } from '../stages/state';

/** Fakes for one stage at a time: a state, ports answering from tables, and progress that records its calls. */

export const INPUT: ResearchInput = {
  prompt: 'Who makes the widget?',
  queries: ['widget maker'],
  objective: null,
  maxSubqueries: 4,
  maxFetches: 3,
  limit: 10,
  country: 'us',
  language: 'en',
};

export const stateFor = (input: Partial<ResearchInput> = {}, build?: (state: ResearchState) => void): ResearchState => {
  const state = initialState({ ...INPUT, ...input });
  build?.(state);
  return state;
};

export const hit = (url: string, score: number, extra: Partial<SearchHit> = {}): SearchHit => ({
  url,
  title: `T ${url}`,
  snippet: `snippet of ${url}`,
  date: null,
  score,
  ...extra,
});

export type Call = [string, ...unknown[]];

/** Progress recording every callback; `stopAfter` stops the run once that many callbacks were made. */
export function recorder(stopAfter = Infinity): ResearchProgress & { calls: Call[] } {
  const calls: Call[] = [];
  const note =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args]);
    };
  return {
    calls,
    planned: note('planned'),
    serpPage: note('serpPage'),
    pageFetched: note('pageFetched'),
    findingGraded: note('findingGraded'),
    resultsMerged: note('resultsMerged'),
    stopped: () => calls.length >= stopAfter,
  };
}

const USAGE: TokenUsage = { input: 10, output: 2 };

/** A model answering from the given tables; anything not given answers "nothing". */
export function fakeModel(answers: {
  plan?: string[];
  grade?: (subquery: string, sources: number[]) => Finding | null;
  followUps?: FollowUp[][];
  report?: string;
}): ResearchModel & { asked: Call[] } {
  const asked: Call[] = [];
  const followUps = [...(answers.followUps ?? [])];
  return {
    name: 'extractive',
    asked,
    async plan(prompt, queries, max) {
      asked.push(['plan', prompt, queries, max]);
      return { subqueries: answers.plan ?? [], usage: USAGE };
    },
    async grade(subquery, passages) {
      asked.push(['grade', subquery, passages.map((p) => p.source)]);
      return {
        finding:
          answers.grade?.(
            subquery,
            passages.map((p) => p.source),
          ) ?? null,
        usage: USAGE,
      };
    },
    async followUp(question, passages, max) {
      asked.push(['followUp', question, passages.map((p) => p.source), max]);
      return { followUps: followUps.shift() ?? [], usage: USAGE };
    },
    async synthesise(prompt, findings, sources) {
      asked.push(['synthesise', prompt, findings.length, sources.map((s) => s.index)]);
      return { report: answers.report ?? '', usage: USAGE };
    },
  };
}

/** Search answering from a table of sub-query -> SERP pages; read answering every URL with its text. */
export function fakePorts(
  serps: Record<string, SearchHit[][]>,
  texts: Record<string, string> = {},
  model = fakeModel({}),
): ResearchPorts & { searched: Call[]; read: (urls: string[]) => Promise<ReadDocument[]> } {
  const searched: Call[] = [];
  return {
    searched,
    model,
    async search(subquery, page) {
      searched.push(['search', subquery, page]);
      const pages = serps[subquery] ?? [];
      return { hits: pages[page - 1] ?? [], hasMore: page < pages.length };
    },
    async read(urls) {
      searched.push(['read', urls]);
      return urls.map((url) =>
        texts[url]
          ? { url, title: `Read ${url}`, text: texts[url]!, error: null }
          : { url, title: null, text: '', error: 'HTTP 404' },
      );
    },
  };
}

export const finding = (subquery: string, source: number): Finding => ({
  subquery,
  answer: `answer [${source}]`,
  citations: [source],
  confidence: 'high',
  evidence: [{ source, quote: 'quote' }],
});
