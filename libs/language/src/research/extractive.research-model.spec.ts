import type { Finding } from '@app/domain/search-run/search-run.events';
import { ExtractiveResearchModel, gradeExtractive, promptAnswer } from './extractive.research-model';
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

describe('gradeExtractive agreement', () => {
  it('counts another source as agreeing only when it states the same value as a whole word, about the same thing', () => {
    const finding = gradeExtractive('In what year was Brightwater Foods founded?', [
      {
        source: 1,
        url: 'https://brightwater.test/about',
        title: 'About Brightwater Foods',
        text: 'Brightwater Foods was founded in 1997 in Tartu.',
      },
      {
        source: 2,
        url: 'https://brightwater.test/stats',
        title: 'Brightwater Foods in numbers',
        text: 'Brightwater Foods sold 11997 loaves last week.',
      },
      {
        source: 3,
        url: 'https://news.test/brightwater',
        title: 'Brightwater Foods at 25',
        text: 'Brightwater Foods, established in 1997, celebrates its anniversary.',
      },
    ]);
    expect(finding?.answer).toBe('1997');
    expect(finding?.evidence.map((e) => e.source)).toEqual([1, 3]);
  });

  it('is no surer of a name than the short path, which sees the other name beside the same words', () => {
    // Two sources state "Tom Reyes" as head coach; the pages name Sam Ortiz head coach almost as well.
    const page = (source: number, title: string, text: string): ResearchPassage => ({
      source,
      url: `https://w.test/${source}`,
      title,
      text,
    });
    const finding = gradeExtractive('Who is the head coach of the Harbour Otters?', [
      page(
        1,
        'Harbour Otters 2015 season',
        'Following their loss in the playoffs, the Harbour Otters underwent coaching changes, including a parting with head coach Tom Reyes (who had won four titles in his four years as Otters head coach), and the hiring of Sam Ortiz as the new head coach.',
      ),
      page(2, 'Otters history', 'Tom Reyes won four titles as head coach of the Harbour Otters.'),
      page(3, 'Harbour Otters', 'The Harbour Otters are a football team. Sam Ortiz is the head coach of the Otters.'),
    ]);
    expect(finding).toMatchObject({ answer: 'Tom Reyes', confidence: 'medium' });
  });
});

describe('gradeExtractive: a name the typed rules read must be a name of the kind asked', () => {
  const page = (source: number, title: string, text: string): ResearchPassage => ({
    source,
    url: `https://w.test/${source}`,
    title,
    text,
  });

  it('does not answer "what team" with a capitalised word opening a sentence', () => {
    const finding = gradeExtractive('What team had 310 yards in the Harvest Cup final?', [
      page(
        1,
        'Harvest Cup',
        'Only four other teams had ever gained fewer than 250 yards in a Harvest Cup final, and all of them lost. The previous record was 310 yards by the Dunmore Otters in the 1998 Harvest Cup final.',
      ),
    ]);
    expect(finding?.answer).toBe('Dunmore Otters');
  });

  it('does not answer "which group" with a numeral compromise sees as no organisation', () => {
    const finding = gradeExtractive('Which group headlined the Harvest Cup 50 halftime show?', [
      page(
        1,
        'Harvest Cup 50',
        'The Harvest Cup 50 halftime show was headlined by the British rock group Lanternfly with special guest performers Ida Brenn and Bruno Castellan, who headlined the Harvest Cup XLVII and Harvest Cup XLVIII halftime shows, respectively.',
      ),
    ]);
    expect(finding?.answer).toBe('Lanternfly');
  });

  it('does not answer "where" with an event the sentence puts "in" before', () => {
    const finding = gradeExtractive('Where did the Otters practice for the Harvest Cup?', [
      page(
        1,
        'Harvest Cup 50',
        'The Otters last wore matching white jerseys in the Harvest Cup in Harvest Cup XXXIII, when they defeated the Lisle Hawks. The Otters practiced at Corran University and stayed at the Corran Grand.',
      ),
    ]);
    expect(finding?.answer).toBe('Corran University');
  });

  it('keeps a place the sentence puts "in" before, though compromise reads it as a person', () => {
    const finding = gradeExtractive("In what city is Harbourline Media's 5KR talkback radio station located?", [
      page(
        1,
        'Dale Corrigan',
        'Dale Corrigan is an Australian radio presenter. Corrigan currently works at Harbourline Media on 5KR and 2XT; he was previously the breakfast presenter at KTV 1170.',
      ),
      page(
        2,
        '5KR',
        '5KR is a commercial talkback radio station based in Adelaide, South Australia, and owned by Harbourline Media.',
      ),
    ]);
    expect(finding?.answer).toBe('Adelaide');
  });

  it('does not answer "in what city" with a name "at" stands before (a station, a club)', () => {
    const finding = gradeExtractive("In what city is Harbourline Media's 5KR talkback radio station located?", [
      page(
        1,
        'Dale Corrigan',
        'Dale Corrigan is an Australian radio presenter. Corrigan currently works at Harbourline Media broadcasting on 5KR and 2XT, he was previously the program director and breakfast presenter at KTR 1170.',
      ),
      page(
        2,
        '5KR',
        "5KR is a talkback radio station based in Brisbane. It began transmission in 1932 as Brisbane's fourth commercial radio station.",
      ),
    ]);
    expect(finding?.answer).toBe('Brisbane');
  });
});

describe('gradeExtractive: a thing asked by its noun', () => {
  it('is answered by the short path where the typed rules read the question as asking for a person ("whose")', () => {
    const question =
      'What is the name of the fight song of the college whose main campus is in Corbin, Ontario and whose branch campuses are in Millbrook?';
    const finding = gradeExtractive(question, [
      {
        source: 1,
        url: 'https://w.example/1',
        title: 'Corbin College',
        text: 'Corbin College is a public college whose main campus is in Corbin, Ontario. Two branch campuses are in Millbrook: the Ashdown Campus and a nursing school.',
      },
      {
        source: 2,
        url: 'https://w.example/2',
        title: 'Corbin Song',
        text: 'Corbin Song is a fight song of Corbin College.',
      },
    ]);
    expect(finding?.answer).toBe('Corbin Song');
  });
});

describe('gradeExtractive: a number that is a name counts nothing', () => {
  it('does not answer "how many songs" with the album called "21"', () => {
    const question = 'How many songs were on the album by Ora Kessel that included "Lumen"?';
    const finding = gradeExtractive(question, [
      {
        source: 1,
        url: 'https://w.example/1',
        title: 'Lumen (song)',
        text: '"Lumen" is a song by American singer Ora Kessel from her album "21" (2017). It was written by Kessel.',
      },
      {
        source: 2,
        url: 'https://w.example/2',
        title: '21 (Ora Kessel album)',
        text: '21 is the debut studio album by American singer Ora Kessel. It was released on August 25, 2017.',
      },
    ]);
    expect(finding?.answer).not.toBe('21');
    expect(promptAnswer(question, finding ? [finding] : [])).toBeNull();
  });
});

describe('gradeExtractive: "how many X" is answered by a number X follows', () => {
  it('prefers "five touchdowns" to a figure nearer the question\'s other words', () => {
    const finding = gradeExtractive('How many touchdowns did Odell Frame make?', [
      {
        source: 1,
        url: 'https://w.test/kings',
        title: 'Harbor Kings',
        text: 'Running back Odell Frame also made a big impact with 720 yards, five touchdowns, 24 receptions, and a 4.7 yards per carry average. Frame joined the Kings in 2012.',
      },
    ]);
    expect(finding?.answer).toBe('five');
  });

  it('keeps a labelled figure the typed rules read ("Students: 5,800")', () => {
    const finding = gradeExtractive('How many students does Tamsworth Polytechnic have?', [
      {
        source: 1,
        url: 'https://tamsworth.test/facts',
        title: 'Tamsworth Polytechnic in figures',
        text: 'Founded: 1966\nTamsworth Polytechnic students: 5,800 (about 3,100 full-time equivalent)',
      },
      {
        source: 2,
        url: 'https://tamsworth.test/news',
        title: 'Placements',
        text: 'Each year two students from the watchmaking course in Antwerp spend a placement in the Tamsworth Polytechnic conservation workshop.',
      },
    ]);
    expect(finding?.answer).toBe('5,800');
  });
});

describe('gradeExtractive: the dates of a life', () => {
  const page = (source: number, title: string, text: string): ResearchPassage => ({
    source,
    url: `https://w.test/${source}`,
    title,
    text,
  });

  it('answers "died" with the end of the lifespan of the person the question describes, not a date beside its words', () => {
    // The typed rules alone took the date in the sentence sharing most words ("near Millbrook on July 27, 1863").
    const finding = gradeExtractive(
      'When was the glider pioneer died who claimed to have flown near Millbrook, Ontario on May 3, 1899?',
      [
        page(
          1,
          'Millbrook, Ontario',
          'Millbrook is a town in Ontario, where Tomas Elvgren claimed to have flown. Skirmishes occurred near Millbrook on July 27, 1863, when a steamer was attacked.',
        ),
        page(
          2,
          'Tomas Elvgren',
          'Tomas Elvgren (born Tomas Elvgrén; 2 March 1861 – 14 November 1930) was a glider pioneer who emigrated to Canada. He built engines until 1915.',
        ),
      ],
    );
    expect(finding).toMatchObject({ answer: '14 November 1930', confidence: 'medium', evidence: [{ source: 2 }] });
  });
});

describe('promptAnswer: the value that answers a prompt, as the report leads with it', () => {
  const finding = (
    subquery: string,
    answer: string,
    quote: string,
    confidence: Finding['confidence'] = 'medium',
  ): Finding => ({ subquery, answer, citations: [1], confidence, evidence: [{ source: 1, quote }] });

  it('is the value a typed finding of the prompt found, with its confidence, citations and sentence', () => {
    const found = promptAnswer('When was Acme Robotics founded?', [
      finding('When was Acme Robotics founded?', '2014', 'Acme Robotics was founded in 2014 in Leeds.', 'high'),
    ]);
    expect(found).toEqual({
      value: '2014',
      confidence: 'high',
      citations: [1],
      quote: 'Acme Robotics was founded in 2014 in Leeds.',
      source: 1,
    });
  });

  it('takes a follow-up that restates the prompt first (its finding answers it)', () => {
    const findings = [
      finding('Where did the chief executive of Acme study?', 'Leeds', 'Acme is based in Leeds.'),
      finding('Where did Dana Whitcombe study?', 'Uppsala University', 'Dana Whitcombe studied at Uppsala University.'),
    ];
    expect(
      promptAnswer('Where did the chief executive of Acme study?', findings, ['Where did Dana Whitcombe study?'])
        ?.value,
    ).toBe('Uppsala University');
  });

  it('is null for an open question (a sentence is not a value) and when no finding answers the prompt', () => {
    expect(
      promptAnswer('How are EV batteries recycled?', [
        finding(
          'How are EV batteries recycled?',
          'Electric vehicle batteries are shredded.',
          'Electric vehicle batteries are shredded.',
        ),
      ]),
    ).toBeNull();
    expect(
      promptAnswer('When was Acme founded?', [
        finding('Who leads Acme?', 'Dana Whitcombe', 'Dana Whitcombe leads Acme.'),
      ]),
    ).toBeNull();
  });

  it('is the option that answers which of two, though the sentence settling it does not repeat its name', () => {
    const q = 'Which park is larger, Harrow Fen National Park or Kestle Moor National Park?';
    expect(
      promptAnswer(q, [finding(q, 'Harrow Fen National Park', 'It covers 412 km² of marshes and dunes.')])?.value,
    ).toBe('Harrow Fen National Park');
    // Anything else is no option.
    expect(promptAnswer(q, [finding(q, 'Kestle Moor', 'It covers 412 km² of marshes and dunes.')])).toBeNull();
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
