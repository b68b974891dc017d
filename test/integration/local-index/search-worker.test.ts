import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The compiled provider (dist/, which `npm test` builds first) searches on a thread of its own.
 * A thread that dies is reported and replaced (a few times in a while); after that, searches go
 * on in the provider's own thread with the same answers. Under
 * jest's TypeScript sources there is no compiled worker script, so this suite loads dist/.
 */
const DIST = path.resolve(__dirname, '..', '..', '..', 'dist', 'libs', 'search-engine', 'src', 'index.js');
const { LocalSearchProvider, SEARCH_THREAD_RESTARTS } = require(DIST) as typeof import('@app/search-engine');
type SearchThreadReport = import('@app/search-engine').SearchThreadReport;

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

describe('local search on its own thread (compiled provider)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-worker-'));
    fs.mkdirSync(path.join(dir, 'pages'));
    fs.writeFileSync(
      path.join(dir, 'pages', 'ferry.html'),
      page('Electric ferry line opens', 'The electric ferry crosses the bay every fifteen minutes from the harbour.'),
    );
    fs.writeFileSync(
      path.join(dir, 'pages', 'tram.html'),
      page('Tram depot extended', 'The tram depot gains four tracks and a washing hall for the new trams.'),
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  type Searcher = { alive: boolean; worker: { terminate(): Promise<number> } };
  const searcherOf = (provider: unknown) => (provider as { searcher: Searcher | null }).searcher;
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 300 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(ok()).toBe(true);
  };

  it('answers on the search thread; one that dies is said and replaced, and the new one follows writes', async () => {
    const reports: SearchThreadReport[] = [];
    const provider = new LocalSearchProvider({
      dataDir: path.join(dir, 'data-restart'),
      indexDir: path.join(dir, 'pages'),
      watch: false,
      onSearchThread: (report) => reports.push(report),
    });
    try {
      await provider.ready();
      const first = searcherOf(provider)!;
      expect(first.alive).toBe(true);
      const onThread = await provider.search({ query: 'electric ferry bay' });
      expect(onThread.hits.map((h) => h.title)).toEqual(['Electric ferry line opens']);

      // A search in flight when the thread dies is answered all the same.
      const inFlight = provider.search({ query: 'tram depot tracks' });
      await first.worker.terminate();
      expect((await inFlight).hits[0].title).toBe('Tram depot extended');
      await until(() => reports.length === 1 && searcherOf(provider) !== first && searcherOf(provider)!.alive);
      expect(reports[0]).toEqual({ error: expect.stringMatching(/exited/), restarted: true, restarts: 1 });
      expect((await provider.search({ query: 'electric ferry bay' })).hits).toEqual(onThread.hits);

      // A page written after the new thread started is found on it.
      fs.writeFileSync(
        path.join(dir, 'pages', 'cable.html'),
        page('Cable car to the summit', 'A cable car climbs to the summit station in six minutes.'),
      );
      await provider.refresh();
      const second = searcherOf(provider)!;
      expect(second.alive).toBe(true);
      expect((await provider.search({ query: 'cable car summit' })).hits[0].title).toBe('Cable car to the summit');
    } finally {
      await provider.close();
      fs.rmSync(path.join(dir, 'pages', 'cable.html'), { force: true });
    }
    // Closing ends the thread without a report.
    expect(reports).toHaveLength(1);
  });

  it(`after ${SEARCH_THREAD_RESTARTS} replacements in a while, searches stay in the provider's own thread with the same answers`, async () => {
    const reports: SearchThreadReport[] = [];
    const provider = new LocalSearchProvider({
      dataDir: path.join(dir, 'data'),
      indexDir: path.join(dir, 'pages'),
      watch: false,
      onSearchThread: (report) => reports.push(report),
    });
    try {
      await provider.ready();
      const onThread = await provider.search({ query: 'electric ferry bay' });
      for (let death = 1; death <= SEARCH_THREAD_RESTARTS + 1; death++) {
        const searcher = searcherOf(provider)!;
        expect(searcher.alive).toBe(true);
        await searcher.worker.terminate();
        await until(() => reports.length === death);
      }
      expect(reports.map((r) => r.restarted)).toEqual([
        ...Array.from({ length: SEARCH_THREAD_RESTARTS }, () => true),
        false,
      ]);
      expect(searcherOf(provider)!.alive).toBe(false);
      const inThread = await provider.search({ query: 'electric ferry bay' });
      expect(inThread.hits).toEqual(onThread.hits);
      expect((await provider.search({ query: 'tram depot tracks' })).hits[0].title).toBe('Tram depot extended');
    } finally {
      await provider.close();
    }
  });
});
