import { UrlMerge } from './merge';

const hit = (url: string, title: string, extra: { content?: string; date?: string | null } = {}) => ({
  url,
  title,
  date: null,
  ...extra,
});

describe('UrlMerge', () => {
  it('keeps one entry per normalised URL, numbered in first-seen order, with every query that found it', () => {
    const merge = new UrlMerge<ReturnType<typeof hit>>();
    merge.add(hit('https://a.example/x', 'A'), 0.5, 0);
    merge.add(hit('https://b.example/', 'B'), 0.4, 0);
    merge.add(hit('http://www.a.example/x/?utm_source=feed#top', 'A again'), 0.2, 1);
    expect(merge.values().map((e) => [e.key, e.seen, [...e.queries]])).toEqual([
      ['a.example/x', 0, [0, 1]],
      ['b.example', 1, [0]],
    ]);
  });

  it('the best-scored copy wins; a tie keeps the first', () => {
    const merge = new UrlMerge<ReturnType<typeof hit>>();
    merge.add(hit('https://a.example/x', 'first'), 0.5, 0);
    merge.add(hit('https://a.example/x?utm_source=feed', 'tie'), 0.5, 1);
    expect(merge.get('a.example/x')).toMatchObject({ hit: { title: 'first' }, score: 0.5 });
    merge.add(hit('https://a.example/x?utm_source=mail', 'better'), 0.9, 2);
    expect(merge.get('a.example/x')).toMatchObject({
      hit: { url: 'https://a.example/x?utm_source=mail', title: 'better' },
      score: 0.9,
      seen: 0,
    });
    merge.add(hit('https://a.example/x', 'worse'), 0.1, 3);
    expect(merge.get('a.example/x')!.hit.title).toBe('better');
  });

  it('a winning copy without text or date takes those of the copy it replaces', () => {
    const merge = new UrlMerge<ReturnType<typeof hit>>();
    merge.add(hit('https://a.example/x', 'first', { content: 'page text', date: '2026-01-02' }), 0.2, 0);
    merge.add(hit('https://a.example/x', 'better', { content: '  ' }), 0.8, 1);
    expect(merge.get('a.example/x')!.hit).toMatchObject({ title: 'better', content: 'page text', date: '2026-01-02' });
    merge.add(hit('https://a.example/x', 'best', { content: 'own text', date: '2026-03-04' }), 0.9, 2);
    expect(merge.get('a.example/x')!.hit).toMatchObject({ title: 'best', content: 'own text', date: '2026-03-04' });
  });

  it('a hit whose URL is blank is not merged', () => {
    const merge = new UrlMerge<ReturnType<typeof hit>>();
    expect(merge.add(hit('  ', 'none'), 1, 0)).toBeNull();
    expect(merge.values()).toEqual([]);
  });
});
