import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IndexChange } from './index-change';
import { LocalIndex } from './local-index';
import { build, DOCS, doc, NOW, urls } from './testing/local-index-fixtures';

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
  it('a bulk writer writes a segment at its page count or its characters of text, whichever comes first', () => {
    const index = new LocalIndex({ now: () => NOW });
    const writer = index.writer({ docs: 4, chars: 1_000 });
    const page = (i: number, words: number) =>
      doc(`https://pages.example/w${i}`, { title: `Page ${i}`, text: 'harbour ferry '.repeat(words) });
    // Two pages of 700 characters pass 1,000: the second is written with the first.
    writer.add(page(1, 50));
    expect(index.stats().segments).toBe(0);
    writer.add(page(2, 50));
    expect(index.stats()).toMatchObject({ segments: 1, documents: 2 });
    // Short pages: the page count cuts.
    for (let i = 3; i <= 6; i++) writer.add(page(i, 2));
    expect(index.stats()).toMatchObject({ segments: 2, documents: 6 });
    writer.add(page(7, 2));
    writer.flush();
    expect(index.stats()).toMatchObject({ segments: 3, documents: 7 });
    expect(index.search({ query: 'harbour ferry', limit: 10 }).hits).toHaveLength(7);
    index.close();
  });

  it('a word whose list was evicted is read again computing only the postings a query reads, and answers exactly as a whole list does', () => {
    const topics = ['harbour ferry', 'tram depot', 'cable car', 'night market', 'river barge'];
    const pages = Array.from({ length: 3000 }, (_, i) =>
      doc(`https://pages.example/${i}`, {
        title: `Page ${i} ${topics[i % 5]}`,
        // Common words in every page, more often in the first pages (as a topic's pages cluster), and rarer ones.
        text: `${'city '.repeat(i < 300 ? 2 + (i % 3) : 1)}transport notes ${topics[(i * 7) % 5]} ${i % 13 ? '' : 'lighthouse keeper'} ${'filler '.repeat(i % 9)} code${i % 97}`,
      }),
    );
    // 60 KB: a common word's whole list does not stay, its bounds (a 64th of it) do.
    const small = new LocalIndex({ now: () => NOW, cacheBytes: 60_000 });
    const large = new LocalIndex({ now: () => NOW });
    small.apply(pages, []);
    large.apply(pages, []);
    const queries = [
      'city transport',
      'city lighthouse',
      'ferry city notes',
      'code42 city',
      'tram depot city transport',
    ];
    const scored = (index: LocalIndex, query: string) =>
      index.search({ query, limit: 10 }).hits.map((h) => [h.url, h.score.toFixed(6)]);
    for (const query of queries) expect(scored(small, query)).toEqual(scored(large, query));
    // Again: the lists went, their bounds stayed, and the lists are rebuilt from them.
    for (const query of queries) expect(scored(small, query)).toEqual(scored(large, query));
    const stats = small.stats();
    expect(stats.boundedTerms).toBeGreaterThan(stats.cachedTerms);
    expect(stats.lazyLists).toBeGreaterThan(0);
    // Pages alike in every word leave little to skip here; at a million pages most is (bench:index).
    expect(stats.lazyPostings.computed).toBeLessThan(stats.lazyPostings.total * 0.6);
    expect(large.stats().lazyLists).toBe(0);
  });

  it('never answers with a page removed or replaced since its words were last searched (their postings still cached)', () => {
    const index = new LocalIndex({ now: () => NOW });
    // Enough pages that one removal leaves the collection's statistics (and so the cache) as they were.
    const filler = Array.from({ length: 200 }, (_, i) =>
      doc(`https://filler.example/${i}`, { text: `filler words ${i}` }),
    );
    index.apply(
      [
        doc('https://coast.example/island', { text: 'quokka island ferry' }),
        doc('https://coast.example/beach', { text: 'quokka beach walk' }),
        ...filler,
      ],
      [],
    );
    const found = (query: string) => index.search({ query, limit: 10 }).hits.map((h) => h.url);
    expect(found('quokka').sort()).toEqual(['https://coast.example/beach', 'https://coast.example/island']);
    expect(found('ferry')).toEqual(['https://coast.example/island']);
    index.remove('https://coast.example/island');
    expect(found('quokka')).toEqual(['https://coast.example/beach']);
    // Replaced by a version without those words: the old one's postings of them are dead.
    index.upsert(doc('https://coast.example/beach', { text: 'a rocky cove' }));
    expect(found('quokka')).toEqual([]);
    expect(found('ferry')).toEqual([]);
    expect(found('cove')).toEqual(['https://coast.example/beach']);
  });

  it('tells a reader that a write touching more words than are worth listing touched them all, and the reader answers as the writer does', async () => {
    // A merge of large segments touches millions of words: listed, they overflowed the stack
    // (one call spread over them) and crossed to the search thread for nothing.
    const word = (i: number) => {
      let w = '';
      for (let n = i + 26 ** 3; n > 0; n = Math.floor(n / 26)) w += String.fromCharCode(97 + (n % 26));
      return w;
    };
    // A page is analysed for its first 20,000 words: twelve pages of 20,000 words of their own.
    const pages = Array.from({ length: 12 }, (_, p) =>
      doc(`https://many.example/words-${p}`, {
        title: `Words ${p}`,
        text: Array.from({ length: 20_000 }, (_, i) => word(p * 20_000 + i)).join(' '),
      }),
    );
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'told-'));
    const file = path.join(dir, 'index.db');
    const index = new LocalIndex({ file, now: () => NOW });
    index.apply([doc('https://many.example/first', { text: `${word(7 * 20_000 + 123)} once` })], []);
    const reader = new LocalIndex({ file, now: () => NOW, readonly: true });
    const query = { query: word(7 * 20_000 + 123), limit: 10 };
    expect(reader.search(query).hits.map((h) => h.url)).toEqual(['https://many.example/first']);
    const changes: IndexChange[] = [];
    index.onChange = (change) => {
      changes.push(change);
      reader.applyChange(change);
    };
    index.apply(pages, []);
    expect(changes).toHaveLength(1);
    expect(changes[0].touchedAll).toBe(true);
    expect(changes[0].touched).toEqual([]);
    const expected = ['https://many.example/words-7', 'https://many.example/first'];
    expect(
      index
        .search(query)
        .hits.map((h) => h.url)
        .sort(),
    ).toEqual(expected.sort());
    expect(reader.search(query)).toEqual(index.search(query));
    // A small write still names its words.
    index.onChange = (change) => changes.push(change);
    index.apply([doc('https://many.example/small', { text: 'quiet harbour' })], []);
    expect(changes[1].touchedAll).toBeUndefined();
    expect(changes[1].touched).toEqual(expect.arrayContaining(['quiet', 'harbour']));
    reader.close();
    index.close();
    await fs.rm(dir, { recursive: true, force: true });
    // 240,000 words analysed and written: about 3 s alone, more beside the other suites.
  }, 30_000);
});
