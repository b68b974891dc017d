import type { BusClient } from '@app/bus';
import type { SearchRequest, SearchResultRow } from '@app/contracts';
import { SqliteEventStore } from '@app/eventstore';
import { ExtractiveLanguageModel } from '@app/language';
import type { SearchCapabilities, SearchHit, SearchProvider } from '@app/providers';
import { SearchService } from './search.service';
import { TeamPages } from './team-pages';

// Pages whose opening says nothing about the question; the answer is further down.
const paragraphs = (topic: string, answer: string) =>
  [
    `${topic} began as a small workshop behind the old railway station in the north of the town.`,
    'The founders spent their first winters repairing farm machinery and building garden sheds for neighbours.',
    'Over the following decade the team grew to forty people and moved into a larger hall by the canal.',
    'Visitors are welcome on the first Saturday of every month, when the hall welcomes guests for guided walks.',
    'The company sponsors the local football club and a summer music festival in the market square.',
    answer,
    'Further details are published in the annual report, which is available from the front desk.',
  ].join('\n');

const hits: SearchHit[] = [
  {
    url: 'https://a.example/tram',
    title: 'Harbour tram works',
    snippet:
      'Harbour tram works: the extension of line 4 along the harbour front to the airport terminal is under way this year.',
    date: null,
    category: 'news',
    language: 'en',
    score: 3,
    content: paragraphs(
      'Harbour Works',
      'The airport tram line will open to passengers on 14 March, after safety tests on the new bridge.',
    ),
  },
  {
    url: 'https://b.example/ferry',
    title: 'Ferry and tram timetable',
    snippet:
      'Ferry and tram timetable: the combined ticket covers the harbour ferry and every tram line in the city centre.',
    date: null,
    category: 'news',
    language: 'en',
    score: 2,
    content: paragraphs(
      'Ferry Office',
      'A combined tram and ferry ticket costs four euros and is valid for ninety minutes.',
    ),
  },
  {
    url: 'https://c.example/depot',
    title: 'Tram depot open day',
    snippet:
      'Tram depot open day: see the new low-floor trams, the workshop and the control room from the inside this weekend.',
    date: null,
    category: 'news',
    language: 'en',
    score: 1,
    content: paragraphs(
      'The Depot',
      'The depot maintains forty low-floor trams and stores them overnight in heated sheds.',
    ),
  },
];

const capabilities: SearchCapabilities = {
  domainFilter: 'native',
  freshness: 'native',
  dateRange: 'native',
  category: 'native',
  country: 'native',
  language: 'native',
  pagination: false,
  fullText: true,
  dates: true,
};

const provider: SearchProvider = {
  name: 'local',
  capabilities,
  search: async () => ({ hits: hits.map((hit) => ({ ...hit })), page: 1, hasMore: false, warnings: [] }),
  ready: async () => undefined,
  close: async () => undefined,
};

const request = (overrides: Partial<SearchRequest>): SearchRequest => ({
  queries: ['tram'],
  objective: null,
  depth: 'auto',
  category: null,
  limit: 10,
  country: 'us',
  language: 'en',
  freshness: null,
  include_domains: null,
  exclude_domains: null,
  max_excerpt_chars: null,
  session_id: 'session_1',
  client_model: null,
  advanced_settings: null,
  ...overrides,
});

/** Every excerpt-like string of a row: what max_excerpt_chars counts (text is the page, not an excerpt). */
const excerptChars = (rows: SearchResultRow[]) =>
  rows.reduce(
    (sum, row) =>
      sum +
      row.snippet.length +
      row.excerpts.join('').length +
      (row.highlights ?? []).join('').length +
      (row.summary ?? '').length,
    0,
  );

describe('SearchService', () => {
  let events: SqliteEventStore;
  let service: SearchService;
  let charge = 0;
  // Rows come from the provider's own page text here: the bus (extraction) is never asked.
  const bus = {} as BusClient;
  const search = (overrides: Partial<SearchRequest>) =>
    service.search(request(overrides), { team_id: 'team', request_id: `r${++charge}`, charge_id: `c${charge}` });

  beforeEach(() => {
    events = new SqliteEventStore(':memory:');
    service = new SearchService(provider, new ExtractiveLanguageModel(), events, bus, new TeamPages(provider, events));
  });
  afterEach(async () => {
    await events.close();
  });

  it("answers a repeated query from its cache until the provider's generation changes (a page edited in the index's folder)", async () => {
    let calls = 0;
    const counting = {
      ...provider,
      generation: 1,
      search: async (...args: Parameters<SearchProvider['search']>) => (calls++, provider.search(...args)),
    };
    service = new SearchService(counting, new ExtractiveLanguageModel(), events, bus, new TeamPages(counting, events));
    await search({ depth: 'instant' });
    await search({ depth: 'instant' });
    expect(calls).toBe(1);
    counting.generation = 2;
    await search({ depth: 'instant' });
    expect(calls).toBe(2);
  });

  it('asks the provider for page text only where it is used: an objective, auto depth, contents', async () => {
    const asked: boolean[] = [];
    const recording = {
      ...provider,
      search: async (query: Parameters<SearchProvider['search']>[0]) => (
        asked.push(query.withContent === true),
        provider.search(query)
      ),
    };
    service = new SearchService(
      recording,
      new ExtractiveLanguageModel(),
      events,
      bus,
      new TeamPages(recording, events),
    );
    await search({ depth: 'instant', queries: ['tram 1'] });
    await search({ depth: 'fast', queries: ['tram 2'] });
    await search({ depth: 'instant', queries: ['tram 3'], objective: 'airport tram' });
    await search({ depth: 'auto', queries: ['tram 4'] });
    await search({ depth: 'instant', queries: ['tram 5'], advanced_settings: { contents: { text: true } } });
    expect(asked).toEqual([false, false, true, true, true]);
    // A page fetched without text is not served to a search that needs it.
    await search({ depth: 'instant', queries: ['tram 1'], objective: 'airport tram' });
    expect(asked).toHaveLength(6);
  });

  describe('max_excerpt_chars', () => {
    const contents = { text: true, highlights: true, summary: true, max_chars: 5_000 };

    it('is one budget over snippets, excerpts, highlights and summaries of all rows', async () => {
      const uncapped = await search({ advanced_settings: { contents } });
      expect(excerptChars(uncapped.results)).toBeGreaterThan(1_000);

      const capped = await search({ max_excerpt_chars: 300, advanced_settings: { contents } });
      expect(capped.results).toHaveLength(3);
      expect(excerptChars(capped.results)).toBeLessThanOrEqual(300);
      expect(excerptChars(capped.results)).toBeGreaterThan(200);
      // Spent in rank order: the first row keeps its snippet whole, the last one gets nothing.
      expect(capped.results[0].snippet).toBe(hits[0].snippet);
      expect(capped.results[2]).toMatchObject({ snippet: '', excerpts: [], highlights: [], summary: '' });
      // The page text is not an excerpt: its own max_chars sizes it.
      for (const [i, row] of capped.results.entries()) expect(row.text).toBe(uncapped.results[i].text);
    });

    it('counts the snippet even without contents, and cuts at a word boundary', async () => {
      const capped = await search({ depth: 'fast', max_excerpt_chars: 150 });
      expect(excerptChars(capped.results)).toBeLessThanOrEqual(150);
      const cut = capped.results
        .flatMap((row) => [row.snippet, ...row.excerpts])
        .filter((s) => s.length > 0)
        .at(-1)!;
      const whole = hits.map((hit) => hit.snippet).find((snippet) => snippet.startsWith(cut))!;
      expect(cut.length).toBeLessThan(whole.length);
      expect(whole[cut.length]).toBe(' ');
    });
  });

  describe('advanced_settings.contents.summary', () => {
    it('sums up the page for the objective, not its opening', async () => {
      const { results } = await search({
        objective: 'when will the airport tram line open',
        advanced_settings: { contents: { summary: true } },
      });
      const tram = results.find((row) => row.url === 'https://a.example/tram')!;
      expect(tram.summary).toContain('will open to passengers on 14 March');
      expect(tram.summary).not.toContain('small workshop behind the old railway station');
      expect(tram.summary!.length).toBeLessThanOrEqual(400);
    });

    it('sums up the page for the queries when there is no objective', async () => {
      const { results } = await search({
        queries: ['combined ticket price euros'],
        advanced_settings: { contents: { summary: true } },
      });
      const ferry = results.find((row) => row.url === 'https://b.example/ferry')!;
      expect(ferry.summary).toContain('costs four euros');
      expect(ferry.summary).not.toContain('small workshop behind the old railway station');
    });
  });
});
