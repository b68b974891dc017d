import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractAny } from '@app/extraction';
import type { SearchHit, SearchPage } from '@app/providers';
import { mergePages, TeamIndexes, type TeamPageRef, type TeamPageText } from './team-indexes';

const md = (title: string, text: string) => `# ${title}\n\n${text}\n`;

describe('TeamIndexes', () => {
  let dir: string;
  /** The pages "in the log", by crawl and revision. */
  const pages = new Map<string, TeamPageText>();
  const put = (crawl: string, revision: number, url: string, title: string, text: string): TeamPageRef => {
    pages.set(`${crawl}@${revision}`, { url, title, content: md(title, text), contentType: 'text/markdown' });
    return { crawlId: crawl, url, pageRevision: String(revision), contentType: 'text/markdown' };
  };
  const open = () =>
    new TeamIndexes({
      dir,
      extract: extractAny,
      read: async (ref) => pages.get(`${ref.crawlId}@${ref.pageRevision}`) ?? null,
    });
  const urls = (page: SearchPage | undefined) => page?.hits.map((hit) => hit.url) ?? [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'team-indexes-'));
    pages.clear();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps each team's pages apart, and holds them across a reopen, resuming after the last revision applied", async () => {
    const teams = open();
    await teams.index(
      'a',
      0n,
      put(
        'c1',
        3,
        'https://kestrel.test/survey',
        'Kestrel survey',
        'Volunteers counted kestrels crossing the peninsula.',
      ),
    );
    expect(urls(teams.search('a', { query: 'kestrel volunteers' }))).toEqual(['https://kestrel.test/survey']);
    expect(teams.search('b', { query: 'kestrel volunteers' })).toBeUndefined();
    teams.close();

    const again = open();
    expect(again.applied('a')).toBe(0n);
    expect(again.applied('b')).toBe(-1n);
    expect(urls(again.search('a', { query: 'kestrel volunteers' }))).toEqual(['https://kestrel.test/survey']);
    // A replayed event changes nothing.
    pages.clear();
    await again.index('a', 0n, {
      crawlId: 'c1',
      url: 'https://kestrel.test/survey',
      pageRevision: '3',
      contentType: 'text/markdown',
    });
    expect(again.size('a')).toBe(1);
    again.close();
  });

  it("finds a team's first page though the team was searched before it had any (and touches no file until then)", async () => {
    const teams = open();
    expect(teams.size('c')).toBe(0);
    // Once its file is known to be absent, asking again costs no file system call.
    // The module object itself (a namespace import's bindings cannot be replaced).
    const exists = jest.spyOn(jest.requireActual<typeof fs>('node:fs'), 'existsSync');
    try {
      expect(teams.search('c', { query: 'heron count' })).toBeUndefined();
      expect(teams.size('c')).toBe(0);
      expect(exists).not.toHaveBeenCalled();
    } finally {
      exists.mockRestore();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
    await teams.index(
      'c',
      0n,
      put('c9', 1, 'https://heron.test/count', 'Heron count', 'The heron count of the spring.'),
    );
    expect(teams.size('c')).toBe(1);
    expect(urls(teams.search('c', { query: 'heron count' }))).toEqual(['https://heron.test/count']);
    teams.close();
  });

  it("removes a crawl's pages; a page another crawl also indexed stays, as that crawl read it", async () => {
    const teams = open();
    await teams.index(
      'a',
      0n,
      put('c1', 3, 'https://owl.test/boxes', 'Owl boxes', 'A barn owl box needs a wide entrance.'),
    );
    await teams.index(
      'a',
      1n,
      put('c1', 4, 'https://owl.test/perches', 'Owl perches', 'Perches for barn owls near the box.'),
    );
    await teams.index(
      'a',
      2n,
      put('c2', 7, 'https://owl.test/boxes', 'Owl boxes', 'A barn owl box needs a floor of sixty centimetres.'),
    );
    expect(teams.size('a')).toBe(2);
    // The latest crawl's copy is shown.
    expect(urls(teams.search('a', { query: 'sixty centimetres' }))).toEqual(['https://owl.test/boxes']);
    expect(urls(teams.search('a', { query: 'wide entrance' }))).toEqual([]);

    expect(await teams.removeCrawl('a', 3n, 'c2')).toBe(0);
    // c1's copy of the page is back.
    expect(urls(teams.search('a', { query: 'sixty centimetres' }))).toEqual([]);
    expect(urls(teams.search('a', { query: 'wide entrance' }))).toEqual(['https://owl.test/boxes']);

    expect(await teams.removeCrawl('a', 4n, 'c1')).toBe(2);
    expect(teams.size('a')).toBe(0);
    expect(teams.search('a', { query: 'owl' })).toBeUndefined();
    expect(teams.applied('a')).toBe(4n);
    teams.close();
  });
});

describe('mergePages', () => {
  const hit = (url: string, score: number): SearchHit => ({
    url,
    title: url,
    snippet: '',
    date: null,
    category: null,
    language: null,
    score,
  });
  const page = (hits: SearchHit[], hasMore = false): SearchPage => ({ hits, page: 1, hasMore, warnings: [] });

  it("places the team's hits by score, keeping the shared order, each URL once, cut to the page asked", () => {
    const shared = page([hit('s1', 9), hit('s2', 5), hit('s3', 6), hit('s4', 1)]);
    const own = page([hit('t1', 7), hit('s2', 4), hit('t2', 2)]);
    expect(mergePages(shared, own, 1, 10).hits.map((h) => h.url)).toEqual(['s1', 't1', 's2', 's3', 't2', 's4']);
    const second = mergePages(shared, own, 2, 2);
    expect(second.hits.map((h) => h.url)).toEqual(['s2', 's3']);
    expect(second.hasMore).toBe(true);
    expect(mergePages(shared, own, 3, 2).hasMore).toBe(false);
  });
});
