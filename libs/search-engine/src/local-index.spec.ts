import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IndexedDocument } from './document';
import { LocalIndex } from './local-index';

const NOW = new Date('2025-06-15T12:00:00Z');

const doc = (url: string, fields: Partial<IndexedDocument> & { text: string }): IndexedDocument => ({
  url,
  title: fields.title ?? url,
  description: null,
  date: null,
  category: null,
  language: 'en',
  domain: new URL(url).hostname,
  source: 'test',
  ...fields,
});

const DOCS: IndexedDocument[] = [
  doc('https://papers.example/abs/sodium', {
    title: 'Layered oxide cathodes for sodium-ion batteries',
    text: 'Sodium-ion batteries are cheaper than lithium. Magnesium doping stops the layered oxide cathode from cracking. Cells keep 92 percent of capacity after 3,000 cycles.',
    category: 'research_paper',
    date: '2024-03-04',
  }),
  doc('https://news.daily.example/science/sodium', {
    title: 'University reports battery breakthrough',
    text: 'Scientists say a new cathode for sodium batteries lasts thousands of cycles. Battery makers are building pilot lines for stationary storage.',
    category: 'news',
    date: '2025-06-13',
  }),
  doc('https://daily.example/opinion/bikes', {
    title: 'Letters on the new bike lanes',
    text: 'Readers write about the protected bike lanes on Quay Road. A shop owner lost his loading bay to the cycle lane.',
    category: 'news',
    date: '2025-05-01',
  }),
  doc('https://www.helio.example/about', {
    title: 'About HelioGrid',
    text: 'HelioGrid makes solar inverters and lithium iron phosphate batteries for homes. The renewable energy company was founded in Freiburg.',
    category: 'company',
  }),
  doc('https://helio.example/de/ueber-uns', {
    title: 'Über HelioGrid',
    text: 'HelioGrid entwickelt Wechselrichter und Batteriespeicher für Solaranlagen. Die Batterien nutzen Lithium-Eisenphosphat.',
    category: 'company',
    language: 'de',
  }),
  doc('https://bakers.example/rye', {
    title: 'Dense rye sourdough',
    text: 'Feed the rye starter twice. Bake at 250 degrees for 15 minutes, then wrap the loaf in a towel.',
    date: '2023-01-10',
    language: null,
  }),
];

const build = (docs = DOCS) => {
  const index = new LocalIndex({ now: () => NOW });
  for (const d of docs) index.upsert(d);
  return index;
};
const urls = (index: LocalIndex, query: Parameters<LocalIndex['search']>[0]) =>
  index.search(query).hits.map((hit) => hit.url);

describe('LocalIndex', () => {
  describe('relevance', () => {
    it('ranks the page about the query above pages that merely mention a term', () => {
      const hits = urls(build(), { query: 'sodium ion battery cathode', limit: 10 });
      expect(hits.slice(0, 2)).toEqual([
        'https://papers.example/abs/sodium',
        'https://news.daily.example/science/sodium',
      ]);
      expect(hits).not.toContain('https://bakers.example/rye');
    });

    it('weighs a title match above the same word in body text', () => {
      const index = build([
        doc('https://a.example/body', {
          title: 'Quarterly update',
          text: 'Notes. The sourdough starter was fed. More notes about the office move and parking.',
        }),
        doc('https://a.example/title', {
          title: 'Sourdough guide',
          text: 'Notes. The starter was fed. More notes about the office move and parking.',
        }),
      ]);
      expect(urls(index, { query: 'sourdough' })).toEqual(['https://a.example/title', 'https://a.example/body']);
    });

    it('matches plural and singular forms and ignores stop words', () => {
      expect(urls(build(), { query: 'the inverter' })).toEqual(['https://www.helio.example/about']);
      expect(urls(build(), { query: 'the and of' })).toEqual([]);
    });

    it('returns the best matching sentence as snippet, the full text as content when asked, and the page fields', () => {
      const index = build();
      const [hit] = index.search({ query: 'magnesium doping', withContent: true }).hits;
      expect(hit.snippet).toContain('Magnesium doping stops the layered oxide cathode from cracking.');
      expect(hit.snippet.length).toBeLessThanOrEqual(301);
      expect(hit.content).toBe(DOCS[0].text);
      // Snippets only by default: the text is most of a hit's bytes.
      expect(index.search({ query: 'magnesium doping' }).hits[0]).not.toHaveProperty('content');
      expect(hit).toMatchObject({
        title: DOCS[0].title,
        date: '2024-03-04',
        category: 'research_paper',
        language: 'en',
      });
      expect(hit.score).toBeGreaterThan(0);
    });
  });

  describe('filters', () => {
    it('includeDomains keeps the domain and its subdomains only', () => {
      expect(urls(build(), { query: 'battery cathode sodium', includeDomains: ['daily.example'] })).toEqual([
        'https://news.daily.example/science/sodium',
      ]);
      expect(urls(build(), { query: 'heliogrid', includeDomains: ['https://helio.example/x'] }).sort()).toEqual([
        'https://helio.example/de/ueber-uns',
        'https://www.helio.example/about',
      ]);
    });

    it('includeDomains does not match a look-alike suffix', () => {
      const index = build([
        doc('https://notdaily.example/a', { text: 'tram news' }),
        doc('https://daily.example/a', { text: 'tram news' }),
      ]);
      expect(urls(index, { query: 'tram', includeDomains: ['daily.example'] })).toEqual(['https://daily.example/a']);
    });

    it('excludeDomains drops the domain and its subdomains', () => {
      expect(urls(build(), { query: 'sodium battery', excludeDomains: ['daily.example'] })).toEqual([
        'https://papers.example/abs/sodium',
        'https://www.helio.example/about',
      ]);
      expect(urls(build(), { query: 'sodium battery', excludeDomains: ['www.helio.example'] })).toContain(
        'https://news.daily.example/science/sodium',
      );
    });

    it('freshness keeps only dated pages inside the window', () => {
      expect(urls(build(), { query: 'sodium battery bike', freshness: 'week' })).toEqual([
        'https://news.daily.example/science/sodium',
      ]);
      expect(urls(build(), { query: 'sodium battery bike', freshness: 'month' }).sort()).toEqual([
        'https://news.daily.example/science/sodium',
      ]);
      expect(urls(build(), { query: 'sodium battery bike', freshness: 'year' }).sort()).toEqual([
        'https://daily.example/opinion/bikes',
        'https://news.daily.example/science/sodium',
      ]);
    });

    it('freshness counts back from the injected clock', () => {
      const later = new LocalIndex({ now: () => new Date('2025-06-30T12:00:00Z') });
      later.apply(DOCS, []);
      expect(urls(later, { query: 'sodium battery', freshness: 'week' })).toEqual([]);
      expect(urls(later, { query: 'sodium battery', freshness: 'month' })).toEqual([
        'https://news.daily.example/science/sodium',
      ]);
    });

    it('dateFrom and dateTo are inclusive bounds and drop undated pages', () => {
      expect(
        urls(build(), { query: 'sodium battery bike heliogrid', dateFrom: '2024-03-04', dateTo: '2025-05-01' }).sort(),
      ).toEqual(['https://daily.example/opinion/bikes', 'https://papers.example/abs/sodium']);
    });

    it('category keeps that category only', () => {
      expect(urls(build(), { query: 'sodium battery', category: 'news' })).toEqual([
        'https://news.daily.example/science/sodium',
      ]);
    });

    it('language keeps pages in that language (by primary tag) and pages of unknown language', () => {
      expect(urls(build(), { query: 'heliogrid', language: 'de' })).toEqual(['https://helio.example/de/ueber-uns']);
      expect(urls(build(), { query: 'heliogrid', language: 'en-GB' })).toEqual(['https://www.helio.example/about']);
      expect(urls(build(), { query: 'rye', language: 'en' })).toEqual(['https://bakers.example/rye']);
    });
  });

  describe('pagination', () => {
    const many = build(
      Array.from({ length: 25 }, (_, i) =>
        doc(`https://many.example/${i}`, { text: `tram stop number ${i} ${'tram '.repeat(i + 1)}` }),
      ),
    );

    it('pages through all hits without overlap and says when more remain', () => {
      const pages = [1, 2, 3].map((page) => many.search({ query: 'tram', page, limit: 10 }));
      expect(pages.map((p) => p.hits.length)).toEqual([10, 10, 5]);
      expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
      expect(new Set(pages.flatMap((p) => p.hits.map((h) => h.url))).size).toBe(25);
      expect(pages[1].page).toBe(2);
    });

    it('keeps score order across pages', () => {
      const scores = [1, 2, 3].flatMap((page) =>
        many.search({ query: 'tram', page, limit: 10 }).hits.map((h) => h.score),
      );
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });
  });

  describe('document order', () => {
    it('gives alike pages of a batch neighbouring ids, whatever order they came in, and answers the same', () => {
      // Three subjects, each with its own words, interleaved a, b, c, a, b, c...; each page also
      // has words of its own, so no two are the same.
      const subjects = [
        'tidal turbine blades corrosion seawater maintenance offshore array cable',
        'sourdough starter flour hydration proofing crust oven bakery',
        'glacier melt runoff valley hydrology snowpack alpine stream',
      ];
      const pages = Array.from({ length: 300 }, (_, i) =>
        doc(`https://site${i % 7}.example/page-${i}`, {
          title: `Page ${i}`,
          text: `${subjects[i % 3]} note${i} extra${i % 11} token${i % 13}.`,
        }),
      );
      const index = new LocalIndex({ now: () => NOW });
      index.apply(pages, []);
      const subjectOf = (url: string) => Number(/page-(\d+)/.exec(url)![1]) % 3;
      const order = (index.db.prepare('SELECT url FROM docs ORDER BY id').pluck().all() as string[]).map(subjectOf);
      let changes = 0;
      for (let i = 1; i < order.length; i++) if (order[i] !== order[i - 1]) changes++;
      expect(changes).toBeLessThan(100); // 299 in arrival order
      // Scores do not depend on ids: the same pages in another arrival order score the same.
      const plain = new LocalIndex({ now: () => NOW });
      plain.apply([...pages].reverse(), []);
      for (const query of ['turbine corrosion', 'sourdough oven', 'glacier stream note7']) {
        const scored = (i: LocalIndex) => i.search({ query, limit: 10 }).hits.map((h) => [h.url, h.score.toFixed(6)]);
        expect(new Set(scored(index).map(([, score]) => score))).toEqual(
          new Set(scored(plain).map(([, score]) => score)),
        );
      }
    });
  });

  describe('updates and persistence', () => {
    let dir: string;
    beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-index-'))));
    afterEach(() => fs.rm(dir, { recursive: true, force: true }));

    it('upserting a URL again replaces the old page: old words no longer match', () => {
      const index = build();
      index.upsert({
        ...DOCS[5],
        title: 'Cardamom buns',
        text: 'Grind cardamom seeds and twist the dough into knots.',
      });
      expect(index.size).toBe(DOCS.length);
      expect(urls(index, { query: 'rye' })).toEqual([]);
      expect(urls(index, { query: 'cardamom' })).toEqual(['https://bakers.example/rye']);
    });

    it('remove drops the page from results', () => {
      const index = build();
      expect(index.remove('https://papers.example/abs/sodium')).toBe(true);
      expect(urls(index, { query: 'magnesium' })).toEqual([]);
      expect(index.remove('https://papers.example/abs/sodium')).toBe(false);
    });

    it('lives in its file: reopened, it answers the same queries with the same pages and meta', () => {
      const file = path.join(dir, 'index.db');
      const index = new LocalIndex({ file, now: () => NOW });
      for (const d of DOCS) index.upsert(d);
      index.upsert({ ...DOCS[5], text: 'Rye bread replaced.' });
      index.setMeta('sources', { seeds: ['https://x.example/'] });
      const queries = ['sodium battery', 'heliogrid', 'rye bread', 'bike lanes'].map(
        (query) => [query, index.search({ query })] as const,
      );
      index.close();
      const reopened = new LocalIndex({ file, now: () => NOW });
      expect(reopened.meta('sources')).toEqual({ seeds: ['https://x.example/'] });
      expect(reopened.size).toBe(DOCS.length);
      for (const [query, page] of queries) expect(reopened.search({ query })).toEqual(page);
      reopened.close();
    });

    it('adds, replaces and removes pages in place, merging segments as they pile up', () => {
      const index = new LocalIndex({ file: path.join(dir, 'index.db'), now: () => NOW });
      for (let i = 0; i < 40; i++)
        index.upsert(doc(`https://grow.example/${i}`, { text: `tram depot ${i} ${i % 2 ? 'night bus' : 'ferry'}` }));
      for (let i = 0; i < 40; i += 3)
        index.upsert(doc(`https://grow.example/${i}`, { text: `replaced page ${i} with a cable car` }));
      for (let i = 1; i < 40; i += 4) index.remove(`https://grow.example/${i}`);
      const stats = index.stats();
      expect(stats.segments).toBeLessThanOrEqual(10);
      const survivors = Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 4 !== 1);
      expect(index.size).toBe(survivors.length);
      const tram = index.search({ query: 'tram', limit: 100 }).hits.map((h) => Number(h.url.split('/').pop()));
      expect(tram.sort((a, b) => a - b)).toEqual(survivors.filter((i) => i % 3 !== 0));
      const cable = index.search({ query: 'cable car', limit: 100 }).hits.map((h) => Number(h.url.split('/').pop()));
      expect(cable.sort((a, b) => a - b)).toEqual(survivors.filter((i) => i % 3 === 0));
      index.close();
    });

    it('scores a page the same however its index was built (one batch, or page by page with replacements)', () => {
      const pages = DOCS.map((d) => ({ ...d }));
      const batch = new LocalIndex({ now: () => NOW });
      batch.apply(pages, []);
      const incremental = new LocalIndex({ now: () => NOW });
      for (const d of pages) incremental.upsert({ ...d, text: 'placeholder words' });
      for (const d of pages) incremental.upsert(d);
      for (const query of ['sodium battery cathode', 'heliogrid inverter', 'rye']) {
        const a = batch.search({ query }).hits;
        const b = incremental.search({ query }).hits;
        expect(b.map((h) => h.url)).toEqual(a.map((h) => h.url));
        b.forEach((h, i) => expect(h.score).toBeCloseTo(a[i].score, 3));
      }
    });

    it('a read-only reader of the same file follows the writer change by change and answers as the writer does', () => {
      const file = path.join(dir, 'index.db');
      const writer = new LocalIndex({ file, now: () => NOW });
      writer.apply(DOCS.slice(0, 3), []);
      const reader = new LocalIndex({ file, now: () => NOW, readonly: true });
      writer.onChange = (change) => reader.applyChange(change);
      const same = (query: string) => expect(reader.search({ query })).toEqual(writer.search({ query }));
      same('sodium battery');
      writer.apply(DOCS.slice(3), []);
      writer.upsert({ ...DOCS[5], text: 'Cardamom buns twisted into knots.' });
      writer.remove('https://papers.example/abs/sodium');
      for (let i = 0; i < 12; i++) writer.upsert(doc(`https://more.example/${i}`, { text: `tram depot ${i}` }));
      for (const query of ['sodium battery', 'heliogrid', 'cardamom', 'rye', 'tram depot', 'magnesium']) same(query);
      expect(reader.size).toBe(writer.size);
      expect(() => reader.upsert(DOCS[0])).toThrow(/readonly/);
      reader.close();
      writer.close();
    });

    it('starts empty from a file of another format, so the provider rebuilds it', () => {
      const file = path.join(dir, 'index.db');
      const index = new LocalIndex({ file });
      index.apply(DOCS, []);
      index.db.pragma('user_version = 2');
      index.close();
      const reopened = new LocalIndex({ file });
      expect(reopened.size).toBe(0);
      expect(reopened.search({ query: 'sodium' }).hits).toEqual([]);
      reopened.close();
    });
  });
});

describe('LocalIndex ranking priors', () => {
  const firms = [
    'Alderwick Bakeries',
    'Brantholm Brewing',
    'Cindervale Coffee',
    'Dunmere Dairy',
    'Elsworth Ales',
    'Fennick Foods',
    'Galloway Grains',
    'Harrowgate Honey',
    'Istbrook Ices',
    'Jarvell Jams',
    'Kelmscott Kitchens',
    'Larchfield Loaves',
    'Merrivale Mills',
    'Norbrook Noodles',
    'Oakhurst Oils',
    'Pendle Pies',
  ];
  const index = () => {
    const i = new LocalIndex({ now: () => NOW });
    // A directory: one line per firm, every line a description, the rye bakery's among them.
    i.upsert(
      doc('https://directory.example/food-makers', {
        title: 'Directory of food makers',
        text: firms.map((f, n) => (n === 0 ? `${f}: organic rye bakery in Tartu, founded 1997.` : `${f}.`)).join('\n'),
      }),
    );
    i.upsert(
      doc('https://alderwick-bakeries.example/', {
        title: 'Alderwick Bakeries',
        text: 'Alderwick Bakeries bakes rye bread in Tartu, in ovens lit every morning since 1997. We deliver to shops and cafés across Estonia six days a week.',
      }),
    );
    i.upsert(
      doc('https://alderwick-bakeries.example/about', {
        title: 'About Alderwick Bakeries',
        text: 'About Alderwick Bakeries: the bakery story, the bakery people, the bakery values. Alderwick Bakeries, Alderwick Bakeries, Alderwick Bakeries.',
      }),
    );
    i.upsert(
      doc('https://news.example/rye', { title: 'Rye is back', text: 'Rye bread sales are rising across Estonia.' }),
    );
    return i;
  };
  const urls = (i: LocalIndex, query: string) => i.search({ query }).hits.map((h) => h.url);

  it('a description ranks the page of the entity it describes above a listing that describes many', () => {
    expect(urls(index(), 'organic rye bakery in Tartu founded 1997')[0]).toBe('https://alderwick-bakeries.example/');
  });

  it("a site's name puts its home page first, also with one typo", () => {
    expect(urls(index(), 'Alderwick Bakeries')[0]).toBe('https://alderwick-bakeries.example/');
    expect(urls(index(), 'Alderwik Bakeries')[0]).toBe('https://alderwick-bakeries.example/');
  });

  it('matches a misspelt rare word loosely only when no page has it as written', () => {
    const i = index();
    expect(urls(i, 'rye sales Estonia')[0]).toBe('https://news.example/rye');
    expect(urls(i, 'Estonai')).toContain('https://news.example/rye');
  });

  it('a page the best result names by its title rises above pages that merely share a word with the query', () => {
    const i = new LocalIndex({ now: () => NOW });
    const wiki = (title: string, text: string) =>
      doc(`https://en.wikipedia.example/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`, { title, text });
    i.upsert(
      wiki(
        'Christmas with Brightwater',
        'Christmas with Brightwater is an album of Christmas songs recorded by the cast of the series Brightwater. One song was produced with The Corvells.',
      ),
    );
    i.upsert(wiki('The Corvells (duo)', 'The Corvells are a Canadian married duo of singers from Nova Scotia.'));
    // Pages sharing the query's words without being what it is about.
    for (let n = 0; n < 12; n++)
      i.upsert(wiki(`Canadian album ${n}`, `A Canadian album of songs, number ${n}, produced in Halifax.`));
    const top = urls(i, 'Which Canadian produced a song with the cast of Brightwater');
    expect(top.slice(0, 2)).toEqual(
      expect.arrayContaining([
        'https://en.wikipedia.example/wiki/Christmas_with_Brightwater',
        'https://en.wikipedia.example/wiki/The_Corvells_(duo)',
      ]),
    );
  });

  it("a company's name in a query prefers its pages, and among them the one the rest of the query asks for", () => {
    const i = new LocalIndex({ now: () => NOW });
    const site = 'https://acme-robotics.example';
    i.upsert(
      doc(`${site}/`, {
        title: 'Acme Robotics',
        text: 'Acme Robotics builds warehouse robots. News, investors, revenue and results, our leadership team, careers, funding news. Contact Acme Robotics.',
      }),
    );
    i.upsert(
      doc(`${site}/investors/fiscal-2023`, {
        title: 'Annual report, fiscal 2023',
        text: 'Revenue for fiscal 2023 was 48 million dollars, up from 31 million in fiscal 2022.',
      }),
    );
    i.upsert(
      doc(`${site}/team`, {
        title: 'Leadership team',
        text: 'Our chief technology officer, Wen Okafor, leads engineering. Our chief executive is Lia Brandt.',
      }),
    );
    i.upsert(
      doc('https://news.example/acme-seed', {
        title: 'Warehouse robot maker raises seed funding',
        text: 'Acme Robotics raised 4 million dollars in seed funding led by Northgate Ventures.',
      }),
    );
    i.upsert(doc('https://other.example/', { title: 'Other Robotics', text: 'Other robots, revenue and a team.' }));
    expect(urls(i, 'Acme Robotics')[0]).toBe(`${site}/`);
    expect(urls(i, 'Acme Robotics revenue fiscal 2023')[0]).toBe(`${site}/investors/fiscal-2023`);
    expect(urls(i, 'Acme Robotics leadership team chief technology officer')[0]).toBe(`${site}/team`);
    expect(urls(i, 'Acme Robotics seed funding')[0]).toBe('https://news.example/acme-seed');
    // A misspelt name does the same.
    expect(urls(i, 'Acme Robotcs revenue fiscal 2023')[0]).toBe(`${site}/investors/fiscal-2023`);
  });
});
