import type { Finding } from '@app/domain/search-run/search-run.events';
import { ExtractiveResearchModel, promptAnswer } from './extractive.research-model';
import { citedIndexes, uncitedClaims } from '@app/research';
import type { ResearchPassage } from '@app/research';

const model = new ExtractiveResearchModel();

const passages: ResearchPassage[] = [
  {
    source: 1,
    url: 'https://recycle.example.org/ev',
    title: 'How EV batteries are recycled',
    text: 'Electric vehicle batteries are recycled by shredding the cells into black mass. Hydrometallurgical plants then recover lithium, nickel and cobalt. The company was founded in 2012.',
  },
  {
    source: 2,
    url: 'https://wiki.example.net/Battery_recycling',
    title: 'Battery recycling',
    text: 'Battery recycling reduces waste.[1] Lithium-ion batteries from electric vehicles are recycled with pyrometallurgical or hydrometallurgical processes.',
  },
  {
    source: 3,
    url: 'https://bread.example.org/sourdough',
    title: 'Sourdough',
    text: 'A sourdough starter is a mix of flour and water fermented by wild yeast. Feed the starter daily.',
  },
];

describe('ExtractiveResearchModel.plan', () => {
  const prompt = 'How are electric vehicle batteries recycled, and what does battery recycling cost in Europe?';

  it('puts the given queries first, then the prompt, its clauses and keyword combinations', async () => {
    const { subqueries, usage } = await model.plan(prompt, ['EV battery recycling'], 8);
    expect(subqueries.slice(0, 4)).toEqual([
      'EV battery recycling',
      'How are electric vehicle batteries recycled, and what does battery recycling cost in Europe',
      'How are electric vehicle batteries recycled',
      'what does battery recycling cost in Europe',
    ]);
    // Keyword queries: the most salient terms (battery, recycle: twice each) in every combination.
    expect(subqueries[4]).toBe('electric vehicle batteries recycled cost');
    expect(subqueries.slice(5).every((q) => /batteries/.test(q) && q.split(' ').length === 3)).toBe(true);
    expect(usage).toEqual({ input: 0, output: 0 });
  });

  it('caps at maxSubqueries, drops repeats (same stemmed terms, any order or spelling) and phrasing-only words', async () => {
    expect((await model.plan(prompt, ['EV battery recycling'], 2)).subqueries).toHaveLength(2);
    expect((await model.plan(prompt, ['a'], 0)).subqueries).toEqual([]);
    const { subqueries } = await model.plan(
      'Batteries recycled? Recycled batteries!',
      ['battery recycling', 'Battery Recycling', ''],
      10,
    );
    expect(subqueries).toEqual(['battery recycling']);
    const compare = await model.plan('Compare heat pumps versus gas boilers', [], 10);
    expect(compare.subqueries.some((q) => /\b(compare|versus)\b/.test(q) && q.split(' ').length <= 3)).toBe(false);
    expect(compare.subqueries).toContain('gas boilers');
  });

  it('is deterministic', async () => {
    expect(await model.plan(prompt, [], 20)).toEqual(await model.plan(prompt, [], 20));
  });
});

describe('ExtractiveResearchModel.grade', () => {
  it('quotes the best sentences verbatim, citing their sources', async () => {
    const { finding } = await model.grade('how are electric vehicle batteries recycled', passages);
    expect(finding).not.toBeNull();
    const f = finding!;
    expect(f.subquery).toBe('how are electric vehicle batteries recycled');
    expect(f.evidence[0]).toEqual({
      source: 1,
      quote: 'Electric vehicle batteries are recycled by shredding the cells into black mass.',
    });
    expect(f.evidence.length).toBeGreaterThanOrEqual(2);
    expect(f.evidence.length).toBeLessThanOrEqual(3);
    for (const e of f.evidence) expect(passages.find((p) => p.source === e.source)!.text).toContain(e.quote);
    expect(f.citations).toEqual([...new Set(f.evidence.map((e) => e.source))]);
    expect(f.citations).not.toContain(3);
    expect(f.answer).toBe(f.evidence.map((e) => e.quote).join(' '));
    // Strong match in two agreeing sources.
    expect(f.confidence).toBe('high');
  });

  it('is less confident with one source or a partial match', async () => {
    const one = await model.grade(
      'how are electric vehicle batteries recycled',
      passages.filter((p) => p.source === 1),
    );
    expect(one.finding!.confidence).toBe('medium');
    const weak = await model.grade('cobalt nickel prices forecast 2030 market', passages);
    expect(weak.finding).not.toBeNull();
    expect(weak.finding!.confidence).toBe('low');
  });

  it('returns null when no sentence shares meaningful terms', async () => {
    expect((await model.grade('quantum gravity experiments', passages)).finding).toBeNull();
    // One shared word of several is not an answer.
    expect((await model.grade('black holes telescope observation', passages)).finding).toBeNull();
    expect((await model.grade('what is it', passages)).finding).toBeNull();
    expect((await model.grade('battery recycling', [])).finding).toBeNull();
  });
});

describe('ExtractiveResearchModel.synthesise', () => {
  const sources = [
    { index: 1, url: 'https://recycle.example.org/ev', title: 'How EV batteries are recycled' },
    { index: 2, url: 'https://wiki.example.net/Battery_recycling', title: 'Battery\nrecycling' },
    { index: 3, url: 'https://bread.example.org/sourdough', title: 'Sourdough' },
  ];
  const findings: Finding[] = [
    {
      subquery: 'how are EV batteries recycled',
      answer: '…',
      citations: [1, 2],
      confidence: 'medium',
      evidence: [
        {
          source: 1,
          quote:
            'Electric vehicle batteries are recycled by shredding the cells into black mass. Plants recover cobalt.',
        },
        { source: 2, quote: 'Battery recycling reduces waste.[1]' },
      ],
    },
    {
      subquery: 'what does recycling cost',
      answer: '…',
      citations: [2],
      confidence: 'high',
      evidence: [{ source: 2, quote: '# 1,000 euros per tonne\nin Europe.' }],
    },
  ];

  it('answers first, then a section per worded sub-question headed by the question (no sentence twice), gap notes and the cited sources', async () => {
    const { report, usage } = await model.synthesise('EV battery\nrecycling?', findings, sources, {
      subqueries: ['how are EV batteries recycled', 'what does recycling cost', 'who recycles most'],
    });
    expect(usage).toEqual({ input: 0, output: 0 });
    expect(report).toBe(
      [
        '# EV battery recycling?',
        '',
        // The first sub-question that has a finding answers an open prompt; a multi-sentence quote is
        // cited sentence by sentence; the page's own footnote mark is gone.
        'Electric vehicle batteries are recycled by shredding the cells into black mass. [1] Plants recover cobalt. [1] Battery recycling reduces waste. [2]',
        '',
        // Its section would repeat the lead: left out.
        '## What does recycling cost',
        '',
        '\\# 1,000 euros per tonne in Europe. [2]',
        '',
        '## Who recycles most',
        '',
        'No source answered: who recycles most',
        '',
        '## Sources',
        '',
        '[1] How EV batteries are recycled — https://recycle.example.org/ev',
        '[2] Battery recycling — https://wiki.example.net/Battery_recycling',
        '',
      ].join('\n'),
    );
    expect(uncitedClaims(report)).toEqual([]);
    expect(citedIndexes(report)).toEqual([1, 2]);
  });

  it('never cites a source it was not given, and says so when nothing answered', async () => {
    const { report } = await model.synthesise('Question', findings, sources.slice(0, 1));
    expect(citedIndexes(report)).toEqual([1]);
    expect(report).toContain('## What does recycling cost\n\nNo source answered: what does recycling cost');
    const empty = await model.synthesise('Question', [], sources, { subqueries: ['a b'] });
    expect(empty.report).toBe(
      '# Question\n\nNo source answered: Question\n\n## A b\n\nNo source answered: a b\n\n## Sources\n\nNo sources were cited.\n',
    );
    expect(uncitedClaims(empty.report)).toEqual([]);
  });
});

describe('a report whose value the answer model withheld', () => {
  const sources = [
    { index: 1, url: 'https://corvane.example/about', title: 'About Corvane Biolabs' },
    { index: 2, url: 'https://news.example/labs', title: 'New laboratories' },
  ];
  const withheld = (subquery: string, value: string, reason: string): Finding => ({
    subquery,
    answer: 'Corvane Biolabs runs two laboratories in Tallinn.',
    citations: [1],
    confidence: 'low',
    evidence: [{ source: 1, quote: 'Corvane Biolabs runs two laboratories in Tallinn.' }],
    verdict: { probability: 0.04, answered: false, value, features: {}, reason },
  });

  it.each([
    [
      'a who-question',
      'Who founded Corvane Biolabs?',
      'Tallinn',
      'The pages read name no person who founded Corvane Biolabs: the closest candidate, "Tallinn", is a place, not a person.',
    ],
    [
      'a what-question',
      'What drug did Corvane Biolabs license?',
      'two laboratories',
      'The pages read state no value that answers "What drug did Corvane Biolabs license": the closest candidate, "two laboratories", is judged only 0.04 likely right.',
    ],
  ])(
    '%s: opens by saying no source answered and why, then the closest passage; no value in bold',
    async (_, question, value, reason) => {
      const { report } = await model.synthesise(question, [withheld(question, value, reason)], sources, {
        subqueries: [question],
      });
      const first = report.split('\n\n')[1]!;
      expect(first).toBe(
        `No source answered: ${question} ${reason} The closest passage: Corvane Biolabs runs two laboratories in Tallinn. [1]`,
      );
      expect(report).not.toContain('**');
      expect(promptAnswer(question, [withheld(question, value, reason)])).toBeNull();
    },
  );
});
