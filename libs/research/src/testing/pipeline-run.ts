/**
 * The research pipeline specs' run (pipeline*.spec.ts): the input they ask, and runResearch over
 * the fake web with the extractive model, every progress callback and port call logged.
 */
import { ExtractiveResearchModel } from '@app/language';
import { runResearch, type ResearchInput, type ResearchPorts, type ResearchProgress } from '../pipeline';
import { fakeWeb } from './fake-web';

// The pipeline's ports (search, read, model) are its seam: the fake web below stands in for the
// search and extraction services, which are tested against real servers in their own suites.
export const INPUT: ResearchInput = {
  prompt: 'How are electric vehicle batteries recycled, and how efficient are heat pumps in cold climates?',
  queries: ['EV battery recycling cost', 'quantum gravity'],
  objective: null,
  maxSubqueries: 5,
  maxFetches: 4,
  limit: 10,
  country: 'us',
  language: 'en',
  pagesPerSubquery: 2,
};

export type Call = [string, ...unknown[]];

/** Progress that logs every callback and port call, and flags any that overlaps an unfinished callback. */
export function harness(options: { stopWhen?: (calls: Call[]) => boolean; rerank?: ResearchPorts['rerank'] } = {}) {
  const web = fakeWeb();
  const model = new ExtractiveResearchModel();
  const calls: Call[] = [];
  const overlaps: string[] = [];
  let busy: string | null = null;
  const note = (name: string) => {
    if (busy) overlaps.push(`${name} during ${busy}`);
  };
  const callback =
    <A extends unknown[]>(name: string) =>
    async (...args: A) => {
      note(name);
      calls.push([name, ...args]);
      busy = name;
      // A real worker appends an event here: the pipeline must wait for it.
      await new Promise((r) => setTimeout(r, 1));
      busy = null;
    };
  const progress: ResearchProgress = {
    planned: callback('planned'),
    serpPage: callback('serpPage'),
    pageFetched: callback('pageFetched'),
    findingGraded: callback('findingGraded'),
    resultsMerged: callback('resultsMerged'),
    stopped: () => options.stopWhen?.(calls) ?? false,
  };
  const watched = <F extends (...args: any[]) => Promise<any>>(name: string, fn: F) =>
    (async (...args: Parameters<F>) => {
      note(name);
      return fn(...args);
    }) as F;
  const gradeSpy = jest.spyOn(model, 'grade');
  const ports: ResearchPorts = {
    search: watched('search', web.ports.search),
    read: watched('read', web.ports.read),
    model,
    ...(options.rerank ? { rerank: options.rerank } : {}),
  };
  return { web, model, calls, overlaps, progress, ports, gradeSpy };
}

export const run = async (input: Partial<ResearchInput> = {}, options: Parameters<typeof harness>[0] = {}) => {
  const h = harness(options);
  const outcome = await runResearch({ ...INPUT, ...input }, h.ports, h.progress);
  return { ...h, outcome };
};

export const kinds = (calls: Call[]) => calls.map((c) => c[0]);
