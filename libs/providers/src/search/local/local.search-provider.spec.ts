import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractDocument } from '@app/extraction';
import { LocalSearchProvider } from './local.search-provider';

const page = (url: string, title: string, text: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><link rel="canonical" href="${url}"></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

describe('LocalSearchProvider', () => {
  let dataDir: string;
  let pagesDir: string;
  const open: LocalSearchProvider[] = [];
  const provider = (options: Partial<ConstructorParameters<typeof LocalSearchProvider>[0]> = {}) => {
    const p = new LocalSearchProvider({ dataDir, indexDir: pagesDir, ...options });
    open.push(p);
    return p;
  };
  const urls = async (p: LocalSearchProvider, query: string) => (await p.search({ query })).hits.map((hit) => hit.url);

  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-provider-data-'));
    pagesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-provider-pages-'));
    await fs.writeFile(path.join(pagesDir, 'ferry.html'), page('https://news.river.example/ferry', 'Electric ferry line opens', 'A battery-electric ferry now links the old port and the university every fifteen minutes.'));
    await fs.writeFile(path.join(pagesDir, 'bridge.html'), page('https://news.river.example/bridge', 'Swing bridge restored', 'The old swing bridge reopened to pedestrians and cyclists after two years of repairs.'));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
    await Promise.all([dataDir, pagesDir].map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  it('declares every filter native except country, with full text, dates and pagination', () => {
    expect(provider().capabilities).toEqual({
      domainFilter: 'native', freshness: 'native', dateRange: 'native', category: 'native', country: 'none', language: 'native',
      pagination: true, fullText: true, dates: true,
    });
  });

  it('indexes the folder once ready and answers with the pages it declares', async () => {
    const p = provider();
    await p.ready();
    const result = await p.search({ query: 'ferry university' });
    expect(result.hits[0]).toMatchObject({ url: 'https://news.river.example/ferry', title: 'Electric ferry line opens' });
    expect(result.hits[0].content).toContain('every fifteen minutes');
    expect(result.warnings).toEqual([]);
  });

  it('saves the index under DATA_DIR/index and reloads it at the next boot without reading the pages again', async () => {
    await provider().ready();
    expect((await fs.readdir(path.join(dataDir, 'index'))).sort()).toEqual(['local-documents.json', 'local-minisearch.json']);
    const extract = jest.fn(extractDocument);
    const again = provider({ extract });
    expect(await urls(again, 'swing bridge')).toEqual(['https://news.river.example/bridge']);
    expect(extract).not.toHaveBeenCalled();
  });

  it('rebuilds at boot when the folder changed', async () => {
    await provider().ready();
    await fs.writeFile(path.join(pagesDir, 'tram.html'), page('https://news.river.example/tram', 'Tram extension approved', 'The council approved the tram extension to the airport.'));
    await fs.rm(path.join(pagesDir, 'bridge.html'));
    const again = provider();
    expect(await urls(again, 'tram airport')).toEqual(['https://news.river.example/tram']);
    expect(await urls(again, 'swing bridge')).toEqual([]);
  });

  it('refresh re-reads the folder: an edited page replaces its old document', async () => {
    const p = provider();
    await p.ready();
    await fs.writeFile(path.join(pagesDir, 'ferry.html'), page('https://news.river.example/ferry', 'Ferry line suspended', 'The ferry is suspended while its charging pier is rebuilt.'));
    await p.refresh();
    expect(await urls(p, 'charging pier')).toEqual(['https://news.river.example/ferry']);
    expect(await urls(p, 'university')).toEqual([]);
    expect(p.stats().documents).toBe(2);
  });

  it('serves the shipped demo corpus when given neither a folder nor seeds', async () => {
    const p = provider({ indexDir: undefined });
    const result = await p.search({ query: 'webhook signature verify', limit: 3 });
    expect(result.hits[0].url).toBe('https://docs.webresearch.example/webhooks');
    expect(p.stats().documents).toBeGreaterThanOrEqual(30);
  });

  it('refuses a LOCAL_INDEX_DIR that does not exist, naming it', async () => {
    const p = provider({ indexDir: path.join(pagesDir, 'missing') });
    await expect(p.ready()).rejects.toThrow(/LOCAL_INDEX_DIR .*missing does not exist/);
    await expect(p.search({ query: 'ferry' })).rejects.toMatchObject({ name: 'SearchProviderError', provider: 'local', retryable: false });
  });

  it('warns when the index is empty', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'local-provider-empty-'));
    const result = await provider({ indexDir: empty }).search({ query: 'anything' });
    expect(result.warnings).toEqual([expect.stringContaining('no pages')]);
    await fs.rm(empty, { recursive: true });
  });

  it('needs a fetcher to crawl seeds', () => {
    expect(() => provider({ seeds: ['https://x.example/'] })).toThrow(/fetcher/);
  });

  it('stops at once on an aborted signal', async () => {
    await expect(provider().search({ query: 'ferry', signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
