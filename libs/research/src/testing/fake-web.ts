import { tokenize } from '@app/text';
import type { ReadDocument, ResearchPorts, SearchHit } from '../pipeline';
import { normalizeUrl } from '@app/urls';

/**
 * A tiny in-memory web (ten pages on EV battery recycling, heat pumps and sourdough) behind the
 * pipeline's search and read ports. Fakes are right here: the pipeline's ports are its seam, and
 * the real search service, providers and extraction are tested against real servers elsewhere.
 * Search is lexical (share of the query's terms a page contains), three hits per SERP page.
 */
export interface FakePage {
  url: string;
  title: string;
  text: string;
  /** The search hit carries the text (as a local index does): no read needed. */
  inlineContent?: boolean;
  /** Reading it fails with this error. */
  readError?: string;
}

const p = (...sentences: string[]) => sentences.join(' ');

export const PAGES: FakePage[] = [
  {
    url: 'https://recycle.example.org/ev-batteries',
    title: 'How EV batteries are recycled',
    text: p(
      'Electric vehicle batteries are recycled by shredding the cells into black mass.',
      'Hydrometallurgical plants then recover lithium, nickel and cobalt from the black mass.',
      'Recovery rates for cobalt and nickel exceed 95 percent in modern plants.',
      'Recycling capacity in Europe is growing quickly.',
    ),
  },
  {
    url: 'https://news.example.com/battery-recycling-costs',
    title: 'The cost of battery recycling in Europe',
    text: p(
      'Recycling a tonne of EV batteries in Europe costs between 1,000 and 3,000 euros.',
      'Battery recycling costs fall as plants scale up.',
      'Transport of damaged batteries is the most expensive step.',
    ),
  },
  {
    url: 'https://www.wiki.example.net/Battery_recycling',
    title: 'Battery recycling',
    text: p(
      'Battery recycling is the reuse and reprocessing of batteries to reduce the number of batteries disposed of as waste.[1]',
      'Lithium-ion batteries are recycled with pyrometallurgical or hydrometallurgical processes.',
      'Electric vehicle batteries can also get a second life in stationary storage before recycling.',
    ),
  },
  {
    url: 'https://dead.example.org/ev-recycling',
    title: 'EV battery recycling news',
    text: 'Electric vehicle battery recycling news from around the world.',
    readError: 'HTTP 404',
  },
  {
    url: 'https://energy.example.org/heat-pumps-cold',
    title: 'Heat pumps in cold climates',
    text: p(
      'Modern air-source heat pumps keep working at minus 25 degrees Celsius.',
      'Their efficiency drops in cold climates, but the seasonal coefficient of performance stays above 2.5 in Nordic homes.',
      'Cold-climate heat pumps use vapour injection compressors.',
    ),
  },
  {
    url: 'https://local.test/heat-pump-guide',
    title: 'Heat pump guide',
    inlineContent: true,
    text: p(
      'A heat pump moves heat instead of burning fuel.',
      'Heat pump efficiency is measured as the coefficient of performance.',
      'In cold climates a heat pump delivers two to three units of heat per unit of electricity.',
    ),
  },
  {
    url: 'https://blog.example.com/heat-pump-myths',
    title: 'Heat pump myths',
    text: p(
      'Many people think heat pumps do not work in cold climates.',
      'Field studies in Norway and Canada show heat pumps heating homes efficiently through long winters.',
    ),
  },
  {
    url: 'https://shop.example.com/boilers',
    title: 'Gas boilers on sale',
    text: p('Gas boilers are on sale this week.', 'Order a new condensing boiler today.'),
  },
  {
    url: 'https://bread.example.org/sourdough',
    title: 'Sourdough starter basics',
    text: p(
      'A sourdough starter is a mix of flour and water fermented by wild yeast.',
      'Feed the starter daily with equal weights of flour and water.',
    ),
  },
  {
    url: 'https://bread.example.org/sourdough-baking',
    title: 'Baking sourdough bread',
    text: p(
      'Bake sourdough bread in a preheated Dutch oven.',
      'A long cold fermentation gives sourdough its sour taste.',
    ),
  },
];

export const PAGE_SIZE = 3;
/** Queries mentioning "recycled" get this variant of the first page's URL (same page). */
export const VARIANT_URL = 'http://www.recycle.example.org/ev-batteries/?utm_source=newsletter#top';

export interface FakeWeb {
  ports: Omit<ResearchPorts, 'model'>;
  searches: Array<{ subquery: string; page: number }>;
  reads: string[][];
}

export function fakeWeb(pages: FakePage[] = PAGES): FakeWeb {
  const searches: FakeWeb['searches'] = [];
  const reads: FakeWeb['reads'] = [];
  const byKey = new Map(pages.map((page) => [normalizeUrl(page.url), page]));
  return {
    searches,
    reads,
    ports: {
      async search(subquery, page) {
        searches.push({ subquery, page });
        const terms = [...new Set(tokenize(subquery))];
        const ranked = pages
          .map((pg, i) => {
            const words = new Set(tokenize(`${pg.title} ${pg.text}`));
            return { pg, i, score: terms.length ? terms.filter((t) => words.has(t)).length / terms.length : 0 };
          })
          .filter((r) => r.score > 0)
          .sort((a, b) => b.score - a.score || a.i - b.i);
        const slice = ranked.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
        const hits: SearchHit[] = slice.map(({ pg, score }) => ({
          url: pg.url === PAGES[0]!.url && /recycled/i.test(subquery) ? VARIANT_URL : pg.url,
          title: pg.title,
          snippet: pg.text.slice(0, 80),
          date: null,
          score: Math.round(score * 1000) / 1000,
          ...(pg.inlineContent ? { content: pg.text } : {}),
        }));
        return { hits, hasMore: ranked.length > page * PAGE_SIZE };
      },
      async read(urls) {
        reads.push([...urls]);
        const answers: ReadDocument[] = urls.map((url) => {
          const page = byKey.get(normalizeUrl(url));
          if (!page) return { url, title: null, text: '', error: 'HTTP 404' };
          if (page.readError) return { url, title: null, text: '', error: page.readError };
          return { url, title: page.title, text: page.text, error: null };
        });
        // Out of order on purpose: answers are matched by URL, not position.
        return answers.reverse();
      },
    },
  };
}

export const pageText = (url: string): string | undefined =>
  PAGES.find((pg) => normalizeUrl(pg.url) === normalizeUrl(url))?.text;
