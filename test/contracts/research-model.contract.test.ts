import type { Finding } from '@app/domain/search-run/search-run.events';
import { tokenize } from '@app/text';
import { ExtractiveResearchModel } from '@app/language';
import { OpenAiResearchModel } from '@app/language';
import { citedIndexes, uncitedClaims } from '@app/research';
import type { ResearchModel, ResearchPassage } from '@app/research';
import { ReplayServer } from '../support/replay-server';
import { load } from '../integration/providers/recorded';

/**
 * The research-model port's contract, the same for both engines: whatever a model answers, the
 * adapter's promises hold (plans capped, unique and given queries first; evidence quoted verbatim
 * from the sources shown; follow-ups within their budget and led by a verbatim quote; reports whose
 * every claim is cited and every citation resolves). The openai engine runs against a loopback
 * Chat Completions server answering with recorded completion objects (the follow-up one written in
 * their shape: no server to record it against here), so a model's mistakes in them (invented
 * quotes, unknown sources) are part of what the contract is checked on.
 */
const passages: ResearchPassage[] = [
  {
    source: 1,
    // A page of Brightwater Foods' own site (its host names it): where its chief executive is named.
    url: 'https://brightwater-foods.test/ev',
    title: 'How EV batteries are recycled',
    text: 'Electric vehicle batteries are recycled by shredding the cells into black mass. Plants recover lithium. Our chief executive, Dana Whitcombe, joined in 2015.',
  },
  {
    source: 2,
    url: 'https://wiki.example.net/Battery_recycling',
    title: 'Battery recycling',
    text: 'Lithium-ion batteries are recycled with "hydrometallurgical" processes. They are sorted first.',
  },
  {
    source: 3,
    url: 'https://bread.example.org/sourdough',
    title: 'Sourdough',
    text: 'A sourdough starter is flour and water.',
  },
];
const sources = passages.map((p) => ({ index: p.source, url: p.url, title: p.title }));
const findings: Finding[] = [
  {
    subquery: 'How are EV batteries recycled',
    answer: 'Shredded into black mass.',
    citations: [1],
    confidence: 'high',
    evidence: [{ source: 1, quote: 'Electric vehicle batteries are recycled by shredding the cells into black mass.' }],
  },
];

interface Engine {
  model: () => ResearchModel;
  /** Readies the answer to the next call of this step (the openai engine's recorded completion). */
  answer: (step: 'plan' | 'grade' | 'follow-up' | 'report') => void;
}

let server: ReplayServer;
beforeAll(async () => {
  server = await ReplayServer.start();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const engines: Array<[string, Engine]> = [
  ['extractive', { model: () => new ExtractiveResearchModel(), answer: () => undefined }],
  [
    'openai (loopback Chat Completions)',
    {
      model: () =>
        new OpenAiResearchModel({
          baseURL: `${server.url}/v1`,
          apiKey: 'sk-test',
          model: 'gpt-4o-mini',
          maxRetries: 0,
        }),
      answer: (step) =>
        server.route({
          method: 'POST',
          path: '/v1/chat/completions',
          body: load('openai-research', `chat-completion-${step}`),
          times: 1,
        }),
    },
  ],
];

const verbatimIn = (quote: string, source: number) =>
  passages
    .find((p) => p.source === source)
    ?.text.replace(/\s+/g, ' ')
    .includes(quote.replace(/\s+/g, ' ')) ?? false;

describe.each(engines)('ResearchModel contract: %s', (_name, engine) => {
  it('plan: given queries first, unique by their words, at most max_subqueries', async () => {
    engine.answer('plan');
    const { subqueries } = await engine
      .model()
      .plan('How are EV batteries recycled, and at what cost?', ['EV battery recycling'], 4);
    expect(subqueries[0]).toBe('EV battery recycling');
    expect(subqueries.length).toBeLessThanOrEqual(4);
    const keys = subqueries.map((q) => [...new Set(tokenize(q))].sort().join(' '));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('grade: a finding for the sub-question asked, every quote verbatim in the source it names, citing only sources shown', async () => {
    engine.answer('grade');
    const { finding } = await engine.model().grade('How are EV batteries recycled', passages.slice(0, 2));
    expect(finding).not.toBeNull();
    expect(finding!.subquery).toBe('How are EV batteries recycled');
    for (const e of finding!.evidence) {
      expect([1, 2]).toContain(e.source);
      expect(verbatimIn(e.quote, e.source)).toBe(true);
    }
    for (const c of finding!.citations) expect([1, 2]).toContain(c);
  });

  it('followUp: at most max, each new, led by a verbatim quote of a source shown', async () => {
    engine.answer('follow-up');
    const question = 'Where did the chief executive of Brightwater Foods study?';
    const { followUps } = await engine.model().followUp(question, passages, 2);
    expect(followUps.length).toBeGreaterThan(0);
    expect(followUps.length).toBeLessThanOrEqual(2);
    for (const f of followUps) {
      expect(f.subquery.trim()).not.toBe('');
      expect(f.subquery).not.toBe(question);
      expect(f.subquery).toContain('Dana Whitcombe');
      if (f.via) expect(verbatimIn(f.via.quote, f.via.source)).toBe(true);
    }
    expect((await engine.model().followUp(question, passages, 0)).followUps).toEqual([]);
  });

  it('synthesise: a titled report whose every claim is cited and every citation resolves, with its sources list', async () => {
    engine.answer('report');
    const { report } = await engine.model().synthesise('How are EV batteries recycled?', findings, sources, {
      subqueries: ['How are EV batteries recycled', 'What does recycling cost'],
    });
    expect(report.startsWith('# ')).toBe(true);
    expect(uncitedClaims(report)).toEqual([]);
    const cited = citedIndexes(report);
    expect(cited.length).toBeGreaterThan(0);
    for (const n of cited) expect(sources.map((s) => s.index)).toContain(n);
    expect(report).toMatch(/\n## Sources\n/);
  });
});
