import robotsParser from 'robots-parser';
import { MAX_URL_CHARS, parseRobots, productToken, ROBOTS_BOUNDS } from './robots';

const UA = 'WebResearchBot/1.0 (+self-hosted web research service)';
const site = 'https://site.test';

describe('parseRobots', () => {
  it('reads the product token of a user agent', () => {
    expect(productToken(UA)).toBe('webresearchbot');
    expect(productToken('Googlebot')).toBe('googlebot');
  });

  it('applies our own group over *, longest match wins and allow wins a tie (RFC 9309)', () => {
    const txt = [
      'User-agent: *',
      'Disallow: /',
      '',
      'User-agent: OtherBot',
      'User-agent: WebResearchBot',
      'Disallow: /private/',
      'Allow: /private/open',
      'Disallow: /*.pdf$',
      'Disallow: /tie',
      'Allow: /tie',
      'Crawl-delay: 2.5',
      'Sitemap: https://site.test/sitemap.xml',
      'Sitemap: /relative.xml',
    ].join('\n');
    const rules = parseRobots(txt, UA);
    expect(rules.isAllowed(`${site}/`)).toBe(true);
    expect(rules.isAllowed(`${site}/private/x`)).toBe(false);
    expect(rules.isAllowed(`${site}/private/open/page`)).toBe(true);
    expect(rules.isAllowed(`${site}/docs/guide.pdf`)).toBe(false);
    expect(rules.isAllowed(`${site}/docs/guide.pdf?x=1`)).toBe(true);
    expect(rules.isAllowed(`${site}/tie`)).toBe(true);
    expect(rules.isAllowed(`${site}/robots.txt`)).toBe(true);
    expect(rules.crawlDelaySec).toBe(2.5);
    expect(rules.sitemaps).toEqual(['https://site.test/sitemap.xml']);
    // Another agent gets the * group.
    expect(parseRobots(txt, 'SomeBot/2').isAllowed(`${site}/anything`)).toBe(false);
  });

  it('agrees with robots-parser on ordinary files and paths', () => {
    const txt = [
      'User-agent: *',
      'Disallow: /search',
      'Allow: /search/about',
      'Disallow: /*?session=',
      'Disallow: /a*b*c$',
      'Disallow: /%E6%97%A5',
      'Disallow: /caf\u00e9',
      'Allow: /*.css$',
      'Disallow: /static/',
      'Disallow:',
    ].join('\n');
    const ours = parseRobots(txt, UA);
    const theirs = robotsParser(`${site}/robots.txt`, txt);
    const paths = [
      '/',
      '/search',
      '/search/about/x',
      '/x?session=1',
      '/x?a=1&session=2',
      '/axxbyyc',
      '/axxbyycd',
      '/abc',
      '/%E6%97%A5/x',
      '/日/x',
      '/café',
      '/caf%C3%A9/menu',
      '/static/a.css',
      '/static/a.js',
      '/static/',
      '/other',
    ];
    for (const path of paths)
      expect([path, ours.isAllowed(`${site}${path}`)]).toEqual([
        path,
        theirs.isAllowed(`${site}${path}`, UA) !== false,
      ]);
  });

  it('bounds a rule before matching: a wildcard bomb is cut, and a check stays cheap', () => {
    const bomb = `/${'*a'.repeat(256 * 1024)}`;
    const rules = parseRobots(`User-agent: *\nDisallow: ${bomb}\nAllow: /${'*b'.repeat(100)}\n`, UA);
    expect(rules.bounded).toBe(2);
    const long = `${site}/${'a'.repeat(6_000)}`;
    const started = process.hrtime.bigint();
    for (let i = 0; i < 5_000; i++) rules.isAllowed(`${long}${i}`);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // The cut rule still refuses what the written one did (a path with at least 16 a's).
    expect(rules.isAllowed(long)).toBe(false);
    expect(rules.isAllowed(`${site}/bbb`)).toBe(true);
    // 5,000 checks of 6 KB paths: the previous matcher took about 10^9 steps for one.
    expect(ms).toBeLessThan(4_000);
  });

  it('keeps at most the bounded number of rules and sitemaps, and refuses an over-long URL', () => {
    const many = Array.from({ length: ROBOTS_BOUNDS.rules + 10 }, (_, i) => `Disallow: /p${i}/`).join('\n');
    const rules = parseRobots(`User-agent: *\n${many}\n`, UA);
    expect(rules.isAllowed(`${site}/p0/`)).toBe(false);
    expect(rules.isAllowed(`${site}/p${ROBOTS_BOUNDS.rules + 5}/`)).toBe(true);
    expect(rules.isAllowed(`${site}/${'x'.repeat(MAX_URL_CHARS)}`)).toBe(false);
  });

  it('allows everything without rules for us, and reads CRLF files', () => {
    expect(parseRobots('', UA).isAllowed(`${site}/x`)).toBe(true);
    expect(parseRobots('User-agent: OtherBot\r\nDisallow: /\r\n', UA).isAllowed(`${site}/x`)).toBe(true);
    expect(parseRobots('User-agent: *\r\nDisallow: /x\r\n', UA).isAllowed(`${site}/x`)).toBe(false);
  });
});
