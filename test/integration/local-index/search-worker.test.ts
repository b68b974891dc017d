import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The compiled provider (dist/, which `npm test` builds first) searches on a thread of its own.
 * If that thread dies, searches go on in the provider's own thread with the same answers. Under
 * jest's TypeScript sources there is no compiled worker script, so this suite loads dist/.
 */
const DIST = path.resolve(__dirname, '..', '..', '..', 'dist', 'libs', 'search-engine', 'src', 'index.js');
const { LocalSearchProvider } = require(DIST) as typeof import('@app/search-engine');

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

  it('answers on the search thread, and after that thread dies answers the same in its own', async () => {
    const provider = new LocalSearchProvider({
      dataDir: path.join(dir, 'data'),
      indexDir: path.join(dir, 'pages'),
      watch: false,
    });
    try {
      await provider.ready();
      const searcher = (
        provider as unknown as { searcher: { alive: boolean; worker: { terminate(): Promise<number> } } | null }
      ).searcher;
      expect(searcher?.alive).toBe(true);
      const onThread = await provider.search({ query: 'electric ferry bay' });
      expect(onThread.hits.map((h) => h.title)).toEqual(['Electric ferry line opens']);

      await searcher!.worker.terminate();
      for (let i = 0; i < 100 && searcher!.alive; i++) await new Promise((r) => setTimeout(r, 10));
      expect(searcher!.alive).toBe(false);
      const inThread = await provider.search({ query: 'electric ferry bay' });
      expect(inThread.hits).toEqual(onThread.hits);
      expect((await provider.search({ query: 'tram depot tracks' })).hits[0].title).toBe('Tram depot extended');
    } finally {
      await provider.close();
    }
  });
});
