import type { CrawlPage } from '@app/domain';
import { frontier } from './crawl.executor';
import { compilePatterns, crawlScope, hostPacer } from './crawl-scope';
import { rank } from './site-map';

describe('crawl scope', () => {
  it('keeps the start site (www folded, same port), subdomains only when asked', () => {
    const inScope = crawlScope('https://docs.test/', { include_subdomains: false });
    expect(['https://docs.test/a', 'https://www.docs.test/b', 'http://docs.test/c'].map(inScope)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['https://api.docs.test/a', 'https://other.test/', 'https://docs.test:8443/'].map(inScope)).toEqual([
      false,
      false,
      false,
    ]);
    expect(crawlScope('https://docs.test/', { include_subdomains: true })('https://api.docs.test/a')).toBe(true);
  });

  it('applies include and exclude patterns (RE2) to the path and query', () => {
    const inScope = crawlScope('https://docs.test/', {
      include_subdomains: false,
      include_paths: ['^/guide/'],
      exclude_paths: ['\\.pdf$', 'draft=1'],
    });
    expect(
      [
        'https://docs.test/guide/a',
        'https://docs.test/guide/a.pdf',
        'https://docs.test/guide/b?draft=1',
        'https://docs.test/blog/',
      ].map(inScope),
    ).toEqual([true, false, false, false]);
    // The start page is always in.
    expect(inScope('https://docs.test/')).toBe(true);
  });

  it('names the field of an invalid pattern; a backtracking bomb runs in linear time', () => {
    expect(() => compilePatterns('exclude_paths', ['('])).toThrow(
      /exclude_paths: "\(" is not a valid regular expression/,
    );
    const inScope = crawlScope('https://docs.test/', { include_subdomains: false, include_paths: ['^(a+)+$'] });
    const started = performance.now();
    expect(inScope(`https://docs.test/${'a'.repeat(5_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('crawl frontier after a takeover', () => {
  const page = (url: string, depth: number, links: string[], final_url = url): CrawlPage => ({
    url,
    final_url,
    depth,
    links,
    status: 200,
    title: null,
    content: null,
    error: null,
    read_at: '',
  });

  it('continues breadth-first with the pages not read yet, a redirect target counting as read', () => {
    const pages = [
      page('https://x.test/', 0, ['https://x.test/a', 'https://x.test/old', 'https://x.test/new']),
      page('https://x.test/a', 1, ['https://x.test/a/b']),
      page('https://x.test/old', 1, [], 'https://x.test/new'),
    ];
    const { queue, seen } = frontier('https://x.test/', pages);
    expect(queue).toEqual([{ url: 'https://x.test/a/b', depth: 2 }]);
    expect(seen.has('x.test/a/b')).toBe(true);
  });

  it('starts at the start page when nothing was read', () => {
    expect(frontier('https://x.test/', []).queue).toEqual([{ url: 'https://x.test/', depth: 0 }]);
  });
});

describe('pacing and ranking', () => {
  it('spaces requests to one host by its delay, other hosts not held up', async () => {
    const pace = hostPacer(async (url) => (url.includes('slow') ? 200 : 0));
    const times: number[] = [];
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) {
      await pace.before('https://slow.test/x');
      times.push(Date.now() - t0);
    }
    await pace.before('https://fast.test/');
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(190);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(190);
    expect(Date.now() - t0 - times[2]!).toBeLessThan(100);
  });

  it('counts the delay from the end of the previous request: a slow answer pushes the next request later', async () => {
    const pace = hostPacer(async () => 200);
    await pace.before('https://slow.test/a');
    // The answer takes 150 ms to come back: the next request waits 200 ms from then, not from the send.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const ended = Date.now();
    pace.after('https://slow.test/a');
    await pace.before('https://slow.test/b');
    expect(Date.now() - ended).toBeGreaterThanOrEqual(195);
  });

  it('ranks by title words (twice) and URL words, ties in found order', () => {
    const entries = [
      { url: 'https://x.test/about', order: 0 },
      { url: 'https://x.test/pricing', order: 1 },
      { url: 'https://x.test/plans', title: 'Pricing plans', order: 2 },
      { url: 'https://x.test/team', order: 3 },
    ];
    expect(rank(entries, 'pricing').map((e) => e.url)).toEqual([
      'https://x.test/plans',
      'https://x.test/pricing',
      'https://x.test/about',
      'https://x.test/team',
    ]);
    expect(rank(entries, null).map((e) => e.order)).toEqual([0, 1, 2, 3]);
  });

  it('ranks the page titled by the words searched for above a home page whose long title mentions them, and reads anchor texts', () => {
    const entries = [
      {
        url: 'https://x.test/',
        title: 'Acme Widgets: pricing, support, downloads and the widget plans for teams',
        anchors: ['Home'],
        order: 0,
      },
      { url: 'https://x.test/about', title: 'About Acme Widgets', anchors: ['About us'], order: 1 },
      { url: 'https://x.test/p/17', title: 'Pricing plans | Acme Widgets', anchors: ['Plans and pricing'], order: 2 },
      { url: 'https://x.test/p/18', anchors: ['Widget pricing for schools'], order: 3 },
      { url: 'https://x.test/support', title: 'Support | Acme Widgets', anchors: ['Help'], order: 4 },
    ];
    expect(
      rank(entries, 'acme pricing plans')
        .map((e) => e.url)
        .slice(0, 2),
    ).toEqual(['https://x.test/p/17', 'https://x.test/']);
    // Known only by the text of a link to it.
    expect(rank(entries, 'schools')[0]!.url).toBe('https://x.test/p/18');
  });
});
