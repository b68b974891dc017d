/** runResearch's follow-ups: from the person the evidence names to the page that answers, chains of three pages, organisation to person to organisation. */
import { ExtractiveResearchModel } from '@app/language';
import { citedIndexes, uncitedClaims } from './citations';
import { runResearch, type ResearchProgress } from './pipeline';
import { type FakePage, fakeWeb } from './testing/fake-web';
import { type Call, INPUT } from './testing/pipeline-run';

describe('runResearch follow-ups (extractive model, fake web)', () => {
  const CHAIN: FakePage[] = [
    {
      url: 'https://brightwater-foods.test/team',
      title: 'Brightwater Foods: our team',
      text: 'Brightwater Foods bakes rye bread in Tartu. Our chief executive, Dana Whitcombe, joined the bakery in 2015. The team of forty bakers works in two shifts.',
      inlineContent: true,
    },
    {
      url: 'https://brightwater-foods.test/about',
      title: 'About Brightwater Foods',
      text: 'Brightwater Foods was founded in 1997. The chief executive studies every new recipe before it reaches the shops.',
      inlineContent: true,
    },
    {
      url: 'https://danawhitcombe.test/',
      title: 'Dana Whitcombe',
      text: 'Dana Whitcombe studied food chemistry at the University of Tartu. She lives near the sea and writes about sourdough.',
      inlineContent: true,
    },
  ];
  const question = 'Where did the chief executive of Brightwater Foods study?';
  const chain = async (maxSubqueries: number) => {
    const web = fakeWeb(CHAIN);
    const calls: Call[] = [];
    const log =
      (name: string) =>
      async (...args: unknown[]) =>
        void calls.push([name, ...args]);
    const progress: ResearchProgress = {
      planned: log('planned'),
      serpPage: log('serpPage'),
      pageFetched: log('pageFetched'),
      findingGraded: log('findingGraded'),
      resultsMerged: log('resultsMerged'),
      stopped: () => false,
    };
    const outcome = await runResearch(
      { ...INPUT, prompt: question, queries: [question], maxSubqueries, maxFetches: 4 },
      { ...web.ports, model: new ExtractiveResearchModel() },
      progress,
    );
    return { outcome, calls, web };
  };

  it('follows the person the evidence names to the page that answers, and records the round as a plan', async () => {
    const { outcome, calls, web } = await chain(8);
    const restated = 'Where did Dana Whitcombe study?';
    expect(outcome.subqueries).toContain(restated);
    expect(web.searches.map((s) => s.subquery)).toContain(restated);
    // The follow-up round's plan: every sub-query so far, the new one last, marked round 2.
    const plans = calls.filter((c) => c[0] === 'planned');
    expect(plans).toHaveLength(2);
    expect(plans[1]).toEqual(['planned', outcome.subqueries, outcome.subqueries.length * 2, 2]);
    const lead = outcome.report!.split('\n\n')[1]!;
    expect(lead).toContain('University of Tartu');
    // The answer and the sentence that led to it are both cited.
    const byIndex = new Map(outcome.sources.map((s) => [s.index, s.url]));
    const cited = citedIndexes(lead).map((n) => byIndex.get(n));
    expect(cited).toEqual(
      expect.arrayContaining(['https://danawhitcombe.test/', 'https://brightwater-foods.test/team']),
    );
    expect(uncitedClaims(outcome.report!)).toEqual([]);
    // The plan and the follow-up that planned something are steps; the look that found nothing more is not.
    expect(outcome.usage.planner_calls).toBe(2);
  });

  it('stays within max_subqueries: no room, no follow-up', async () => {
    const { outcome, calls } = await chain(1);
    expect(outcome.usage.planner_calls).toBe(1);
    expect(outcome.subqueries).toEqual([question]);
    expect(calls.filter((c) => c[0] === 'planned')).toHaveLength(1);
    expect(outcome.report!.split('\n\n')[1]).not.toContain('University of Tartu');
  });
});

describe('runResearch three-page chains (extractive model, fake web)', () => {
  it('names what the question describes, then who holds the role, then reads that person’s page', async () => {
    const pages: FakePage[] = [
      {
        url: 'https://verabrook.test/',
        title: 'Verabrook Medical',
        text: 'Verabrook Medical makes hospital equipment in Eindhoven. Our flagship infusion pump is the Sentria 4, a volumetric pump built around the nurse.',
        inlineContent: true,
      },
      {
        url: 'https://verabrook.test/sentria-4',
        title: 'Sentria 4 infusion pump',
        text: 'The Sentria 4 took four years to design. The lead industrial designer on the project was Joost Hammerlin, who worked with our engineers from the first sketches.',
        inlineContent: true,
      },
      {
        url: 'https://joosthammerlin.test/',
        title: 'Joost Hammerlin',
        text: 'I trained at the Design Academy in Eindhoven and then spent nine years designing kitchen appliances at Brenholt Haushaltsgeräte in Stuttgart.',
        inlineContent: true,
      },
    ];
    const web = fakeWeb(pages);
    const question =
      "For which company did the lead industrial designer of Verabrook Medical's flagship infusion pump previously design kitchen appliances?";
    const rounds: number[] = [];
    const progress: ResearchProgress = {
      planned: async (_s, _t, round) => void rounds.push(round ?? 1),
      serpPage: async () => {},
      pageFetched: async () => {},
      findingGraded: async () => {},
      resultsMerged: async () => {},
      stopped: () => false,
    };
    const outcome = await runResearch(
      { ...INPUT, prompt: question, queries: [question], maxSubqueries: 8 },
      { ...web.ports, model: new ExtractiveResearchModel() },
      progress,
    );
    expect(rounds).toEqual([1, 2, 3]);
    expect(outcome.subqueries.slice(-2)).toEqual([
      'For which company did the lead industrial designer of Sentria 4 previously design kitchen appliances?',
      'For which company did Joost Hammerlin previously design kitchen appliances?',
    ]);
    const lead = outcome.report!.split('\n\n')[1]!;
    expect(lead).toContain('**Brenholt Haushaltsgeräte**');
    const cited = new Set(citedIndexes(lead).map((n) => outcome.sources.find((s) => s.index === n)!.url));
    expect(cited).toEqual(new Set(['https://joosthammerlin.test/', 'https://verabrook.test/sentria-4']));
  });
});

describe('runResearch organisation -> person -> organisation chains (extractive model, fake web)', () => {
  it('follows the chair to the company that employs them, then answers about that company', async () => {
    const pages: FakePage[] = [
      {
        url: 'https://kestrelgrid.test/governance',
        title: 'Kestrelgrid Foundation governance',
        text: 'The Kestrelgrid Foundation is governed by a board of seven. The board is chaired by Henrik Salvesen, who was elected in 2021.',
        inlineContent: true,
      },
      {
        url: 'https://henriksalvesen.test/',
        title: 'Henrik Salvesen',
        text: 'I write database engines for a living. In 2012 I joined Tindral Systems as a storage engineer and I still work there today.',
        inlineContent: true,
      },
      {
        url: 'https://tindral.test/about',
        title: 'About Tindral Systems',
        text: 'Tindral Systems was founded in 2004 in Bergen by three engineers from the shipping industry.',
        inlineContent: true,
      },
    ];
    const web = fakeWeb(pages);
    const question = 'In what year was the company that employs the chair of the Kestrelgrid Foundation founded?';
    const outcome = await runResearch(
      { ...INPUT, prompt: question, queries: [question], maxSubqueries: 8 },
      { ...web.ports, model: new ExtractiveResearchModel() },
      {
        planned: async () => {},
        serpPage: async () => {},
        pageFetched: async () => {},
        findingGraded: async () => {},
        resultsMerged: async () => {},
        stopped: () => false,
      },
    );
    expect(outcome.subqueries.slice(-2)).toEqual([
      'In what year was the company that employs Henrik Salvesen founded?',
      'In what year was Tindral Systems founded?',
    ]);
    const lead = outcome.report!.split('\n\n')[1]!;
    expect(lead).toContain('**2004**');
    expect(lead).not.toContain('**2012**');
  });
});
