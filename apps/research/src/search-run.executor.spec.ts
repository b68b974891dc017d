import type { DeepSearchParams, RunResult } from '@app/domain/search-run';
import { normalizeUrl } from '@app/urls';
import { fitTexts, RESULTS_TEXT_BYTES, shapeSnippets, withContents } from './search-run.executor';

// A page whose opening says nothing about the question; the answer is further down.
const page = (answer: string) =>
  [
    'The works began as a small workshop behind the old railway station in the north of the town.',
    'The founders spent their first winters repairing farm machinery and building garden sheds for neighbours.',
    'Over the following decade the team grew to forty people and moved into a larger hall by the canal.',
    'Visitors are welcome on the first Saturday of every month, when the hall welcomes guests for guided walks.',
    'The company sponsors the local football club and a summer music festival in the market square.',
    answer,
  ].join('\n');

const rows: RunResult[] = [
  {
    url: 'https://a.example/tram',
    title: 'Harbour works',
    snippet: 'The extension of line 4 along the harbour front to the airport terminal is under way this year.',
    date: null,
    domain: 'a.example',
    score: 0.9,
  },
  {
    url: 'https://b.example/ferry',
    title: 'Ferry office',
    snippet: 'The combined ticket covers the harbour ferry and every line in the city centre, day and night.',
    date: null,
    domain: 'b.example',
    score: 0.6,
  },
  {
    url: 'https://c.example/depot',
    title: 'Depot',
    snippet: 'See the new low-floor trams, the workshop and the control room from the inside this weekend.',
    date: null,
    domain: 'c.example',
    score: 0.3,
  },
];

const texts = new Map([
  [
    normalizeUrl('https://a.example/tram'),
    { text: page('The airport tram line will open to passengers on 14 March, after safety tests on the new bridge.') },
  ],
  [
    normalizeUrl('https://b.example/ferry'),
    { text: page('A combined tram and ferry ticket costs four euros and is valid for ninety minutes.') },
  ],
  [
    normalizeUrl('https://c.example/depot'),
    { text: page('The depot maintains forty low-floor trams and stores them overnight in heated sheds.') },
  ],
]);

const params = (overrides: Partial<DeepSearchParams>): DeepSearchParams => ({
  queries: ['tram'],
  prompt: null,
  objective: null,
  limit: 10,
  country: 'us',
  language: 'en',
  max_subqueries: 2,
  max_fetches: 4,
  webhook: null,
  ...overrides,
});

/** Every excerpt-like string of a row: what max_excerpt_chars counts (text is the page, not an excerpt). */
const excerptChars = (results: RunResult[]) =>
  results.reduce(
    (sum, row) => sum + row.snippet.length + (row.highlights ?? []).join('').length + (row.summary ?? '').length,
    0,
  );

describe('deep run result shaping', () => {
  const contents = { text: true, highlights: true, summary: true };

  it('max_excerpt_chars is one budget over snippets, highlights and summaries of all rows, in rank order', () => {
    const p = params({ max_excerpt_chars: 250, advanced_settings: { contents } });
    const full = withContents(rows, params({ advanced_settings: { contents } }), texts);
    expect(excerptChars(full)).toBeGreaterThan(600);
    const shaped = shapeSnippets(withContents(rows, p, texts), p);
    expect(excerptChars(shaped)).toBeLessThanOrEqual(250);
    expect(excerptChars(shaped)).toBeGreaterThan(150);
    expect(shaped[0].snippet).toBe(rows[0].snippet);
    expect(shaped[2]).toMatchObject({ snippet: '', highlights: [], summary: '' });
    // The page text is sized by contents.max_chars, not by the excerpt budget.
    for (const [i, row] of shaped.entries()) expect(row.text).toBe(full[i].text);
  });

  it('sizes each snippet first, then spends the budget, cutting at a word boundary', () => {
    const shaped = shapeSnippets(
      rows,
      params({ max_excerpt_chars: 100, advanced_settings: { excerpts: { max_chars_per_result: 60 } } }),
    );
    expect(shaped[0].snippet.length).toBeLessThanOrEqual(60);
    expect(excerptChars(shaped)).toBeLessThanOrEqual(100);
    const cut = shaped[1].snippet;
    expect(cut.length).toBeGreaterThan(0);
    expect(rows[1].snippet.startsWith(cut)).toBe(true);
    expect(rows[1].snippet[cut.length]).toBe(' ');
    expect(shaped[2].snippet).toBe('');
  });

  it('leaves rows alone without a budget', () => {
    expect(shapeSnippets(rows, params({}))).toEqual(rows);
  });

  it('a summary is focused on the objective, not the page opening', () => {
    const [tram] = withContents(
      rows,
      params({ objective: 'when will the airport tram line open', advanced_settings: { contents: { summary: true } } }),
      texts,
    );
    expect(tram.summary).toContain('will open to passengers on 14 March');
    expect(tram.summary).not.toContain('small workshop behind the old railway station');
  });

  it('a summary is focused on the queries when there is no objective', () => {
    const [, ferry] = withContents(
      rows,
      params({ queries: ['combined ticket price euros'], advanced_settings: { contents: { summary: true } } }),
      texts,
    );
    expect(ferry.summary).toContain('costs four euros');
    expect(ferry.summary).not.toContain('small workshop behind the old railway station');
  });
});

describe('fitTexts: the page text of a run’s results fits one event', () => {
  const row = (url: string, text?: string): RunResult =>
    ({
      url,
      title: url,
      snippet: 's',
      date: null,
      domain: 'example.com',
      score: 1,
      ...(text !== undefined && { text }),
    }) as RunResult;

  it('leaves texts alone under the budget, and cuts them to fair shares over it: short ones whole, long ones alike', () => {
    const small = [row('a', 'one two'), row('b')];
    expect(fitTexts(small, 100)).toBe(small);
    const fitted = fitTexts(
      [row('a', 'short text'), row('b', 'word '.repeat(10_000)), row('c', 'word '.repeat(20_000)), row('d')],
      20_010,
    );
    const bytes = fitted.map((r) => Buffer.byteLength(r.text ?? ''));
    expect(fitted[0]!.text).toBe('short text');
    expect(bytes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20_010);
    expect(Math.abs(bytes[1]! - bytes[2]!)).toBeLessThan(10);
    expect(fitted[3]!.text).toBeUndefined();
  });

  it('keeps 20 pages of 5 MB under RESULTS_TEXT_BYTES, multibyte text too', () => {
    const rows = Array.from({ length: 20 }, (_, i) => row(`u${i}`, (i % 2 ? 'é ' : 'e ').repeat(2_500_000)));
    const total = fitTexts(rows).reduce((sum, r) => sum + Buffer.byteLength(r.text!), 0);
    expect(total).toBeLessThanOrEqual(RESULTS_TEXT_BYTES);
    expect(total).toBeGreaterThan(RESULTS_TEXT_BYTES * 0.95);
  });
});
