import type { SearchHit } from './ports';
import { fakePorts, hit, recorder, stateFor } from '../testing/stage-fakes';
import { chooseReads, read, readPages } from './read';
import { mergedResults, type ResearchState } from './state';

/** Sub-query 0 found u1..u3, sub-query 1 found u4; u2 came with its text. */
function searched(input: Parameters<typeof stateFor>[0] = {}): ResearchState {
  return stateFor(input, (s) => {
    s.subqueries = ['a', 'b'];
    const add = (h: SearchHit, q: number) => s.entries.add(h, h.score, q);
    add(hit('https://x.example/u1', 0.9), 0);
    add(hit('https://x.example/u2', 0.8, { content: 'given text' }), 0);
    add(hit('https://x.example/u3', 0.7), 0);
    add(hit('https://x.example/u4', 0.1), 1);
  });
}

describe('chooseReads', () => {
  it('takes each sub-query its best unread result in turn, skips results that came with text, within the budget', () => {
    const state = searched();
    const urls = (n: number) => chooseReads(mergedResults(state), state, n).map((e) => e.hit.url);
    expect(urls(2)).toEqual(['https://x.example/u1', 'https://x.example/u4']);
    expect(urls(9)).toEqual(['https://x.example/u1', 'https://x.example/u4', 'https://x.example/u3']);
    expect(urls(0)).toEqual([]);
    expect(chooseReads(mergedResults(state), state, 9, 1).map((e) => e.hit.url)).toEqual(['https://x.example/u4']);
  });
});

describe('read stage', () => {
  it('reads in batches, records each read (failed ones too), charges the pages read, then numbers the sources', async () => {
    const state = searched({ readBatch: 2, maxFetches: 3 });
    const ports = fakePorts({}, { 'https://x.example/u1': 'one', 'https://x.example/u3': 'three' });
    const progress = recorder();
    expect(await read(state, ports, progress)).toBe(false);
    expect(ports.searched).toEqual([
      ['read', ['https://x.example/u1', 'https://x.example/u4']],
      ['read', ['https://x.example/u3']],
    ]);
    expect(progress.calls).toEqual([
      ['pageFetched', 'https://x.example/u1', true, 'Read https://x.example/u1', null],
      ['pageFetched', 'https://x.example/u4', false, null, 'HTTP 404'],
      ['pageFetched', 'https://x.example/u3', true, 'Read https://x.example/u3', null],
    ]);
    expect(state).toMatchObject({ readBatches: 2, fetchesLeft: 0, usage: { pages_fetched: 2 } });
    expect(state.docs.get('x.example/u4')).toEqual({ ok: false, title: null, text: '' });
    expect(state.sources!.map((s) => [s.index, s.url, s.title, s.fetched, s.quality, s.first_seen_subquery])).toEqual([
      [1, 'https://x.example/u1', 'Read https://x.example/u1', true, 'medium', 'a'],
      [2, 'https://x.example/u2', 'T https://x.example/u2', true, 'medium', 'a'],
      [3, 'https://x.example/u3', 'Read https://x.example/u3', true, 'medium', 'a'],
      [4, 'https://x.example/u4', 'T https://x.example/u4', false, 'low', 'b'],
    ]);
  });

  it("cites a read PDF with the page that holds the most of its sub-query's words (#page=N)", async () => {
    const state = stateFor({}, (s) => {
      s.subqueries = ['telescope mirror diameter'];
      s.entries.add(hit('https://x.example/report.pdf', 0.9), 0.9, 0);
      s.entries.add(hit('https://x.example/page', 0.8), 0.8, 0);
    });
    const pages = [
      'The history of the site and its founding.',
      'Visitor numbers rose by a tenth.',
      'The telescope mirror has a diameter of 3.6 metres.',
    ];
    const text = pages.join('\n\n');
    const pageStarts = pages.map((_, i) => pages.slice(0, i).join('\n\n').length + (i ? 2 : 0));
    const ports = {
      read: async (urls: string[]) =>
        urls.map((url) =>
          url.endsWith('.pdf')
            ? { url, title: 'Report', text, error: null, pageStarts }
            : { url, title: 'Page', text: 'telescope mirror', error: null },
        ),
    };
    expect(await read(state, ports, recorder())).toBe(false);
    expect(state.sources!.map((s) => s.url)).toEqual(['https://x.example/report.pdf#page=3', 'https://x.example/page']);
  });

  it('matches an answer by position when it names a URL not asked for (a redirect)', async () => {
    const state = searched();
    const ports = {
      read: async (urls: string[]) =>
        urls.map((u) => ({ url: `${u}/moved`, title: ' Moved ', text: 'text', error: null })),
    };
    const progress = recorder();
    await readPages(state, ports, progress, [state.entries.get('x.example/u1')!]);
    expect(progress.calls).toEqual([['pageFetched', 'https://x.example/u1', true, 'Moved', null]]);
  });

  it('records which reads the browser rendered (the run is charged sku_render for them), failed ones too', async () => {
    const state = searched();
    const ports = {
      read: async (urls: string[]) =>
        urls.map((u, i) => ({
          url: u,
          title: 'T',
          text: i === 0 ? 'text' : '',
          error: i === 0 ? null : 'rendering did not finish',
          rendered: true,
        })),
    };
    const progress = recorder();
    await readPages(state, ports, progress, [state.entries.get('x.example/u1')!, state.entries.get('x.example/u2')!]);
    expect(progress.calls).toEqual([
      ['pageFetched', 'https://x.example/u1', true, 'T', null, true],
      ['pageFetched', 'https://x.example/u2', false, null, 'rendering did not finish', true],
    ]);
  });

  it('a stopped run keeps no unreported read and numbers no sources', async () => {
    const state = searched();
    const ports = fakePorts({}, { 'https://x.example/u1': 'one' });
    expect(await read(state, ports, recorder(1))).toBe(true);
    expect([...state.docs.keys()]).toEqual(['x.example/u1']);
    expect(state.sources).toBeNull();
  });
});
