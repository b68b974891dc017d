import { domainMatches, mirroredUrl, normalizeDomain, absoluteUrl, siteKey } from './address';

describe('absoluteUrl', () => {
  it('drops fragments, tracking parameters and default ports, and sorts the rest', () => {
    expect(absoluteUrl('HTTPS://News.Example:443/a?utm_source=x&b=2&fbclid=y&a=1#top')).toBe(
      'https://news.example/a?a=1&b=2',
    );
    expect(absoluteUrl('http://x.example/p?utm_medium=social')).toBe('http://x.example/p');
  });

  it('resolves relative links against a base and keeps the trailing slash', () => {
    expect(absoluteUrl('../b/', 'http://x.example/a/c')).toBe('http://x.example/b/');
  });

  it('refuses what is not http(s)', () => {
    expect(absoluteUrl('mailto:a@b.example')).toBeNull();
    expect(absoluteUrl('javascript:void(0)', 'http://x.example/')).toBeNull();
    expect(absoluteUrl('not a url')).toBeNull();
  });
});

describe('domains', () => {
  it('normalizes filter entries written as hosts or URLs', () => {
    expect(
      ['Example.COM', 'https://example.com/path', '.example.com', 'example.com:8080'].map(normalizeDomain),
    ).toEqual(Array(4).fill('example.com'));
  });

  it('matches a domain and its subdomains, not look-alikes', () => {
    expect(domainMatches('news.example.com', 'example.com')).toBe(true);
    expect(domainMatches('example.com', 'example.com')).toBe(true);
    expect(domainMatches('badexample.com', 'example.com')).toBe(false);
    expect(domainMatches('example.com', 'news.example.com')).toBe(false);
  });

  it('treats www and scheme as one site, ports and subdomains as others', () => {
    expect(siteKey('https://www.a.example/x')).toBe(siteKey('http://a.example/y'));
    expect(siteKey('http://127.0.0.1:8001/')).not.toBe(siteKey('http://127.0.0.1:8002/'));
    expect(siteKey('http://news.a.example/')).not.toBe(siteKey('http://a.example/'));
  });
});

describe('mirroredUrl', () => {
  const mirror = 'http://127.0.0.1:41234/';
  it('puts a URL under the mirror origin on the public origin, path and query kept', () => {
    expect(mirroredUrl('http://127.0.0.1:41234/a/b?x=1', mirror, 'https://acme.example')).toBe(
      'https://acme.example/a/b?x=1',
    );
    expect(mirroredUrl('http://127.0.0.1:41234/', mirror, 'https://acme.example')).toBe('https://acme.example/');
  });

  it('leaves a URL on another origin (another port, host or scheme) as it is', () => {
    expect(mirroredUrl('http://127.0.0.1:41235/a', mirror, 'https://acme.example')).toBe('http://127.0.0.1:41235/a');
    expect(mirroredUrl('https://127.0.0.1:41234/a', mirror, 'https://acme.example')).toBe('https://127.0.0.1:41234/a');
  });
});
