import { domainOf, normalizeUrl, onDomain } from './url-key';

describe('normalizeUrl', () => {
  it('treats scheme, www., trailing slash, tracking parameters, fragment and parameter order as the same page', () => {
    const same = [
      'https://www.Example.org/news/story/',
      'http://example.org/news/story',
      'https://example.org/news/story?utm_source=twitter&utm_medium=social',
      'https://example.org/news/story#comments',
      'https://example.org:443/news/story?fbclid=abc',
    ];
    expect(new Set(same.map(normalizeUrl)).size).toBe(1);
  });
  it('keeps what tells pages apart', () => {
    expect(normalizeUrl('https://example.org/a?page=2')).not.toBe(normalizeUrl('https://example.org/a?page=3'));
    expect(normalizeUrl('https://example.org/a?b=1&a=2')).toBe(normalizeUrl('https://example.org/a?a=2&b=1'));
    expect(normalizeUrl('https://example.org:8080/a')).not.toBe(normalizeUrl('https://example.org/a'));
    expect(normalizeUrl('https://news.example.org/a')).not.toBe(normalizeUrl('https://example.org/a'));
  });
});

describe('domains', () => {
  it('match the domain and its subdomains only', () => {
    expect(domainOf('https://www.News.Example.org/x')).toBe('news.example.org');
    expect(onDomain('news.example.org', 'example.org')).toBe(true);
    expect(onDomain('example.org', 'example.org')).toBe(true);
    expect(onDomain('example.org', 'www.example.org')).toBe(true);
    expect(onDomain('notexample.org', 'example.org')).toBe(false);
    expect(onDomain('example.org.evil.test', 'example.org')).toBe(false);
  });
});

describe('normalizeUrl (edge cases)', () => {
  it('keeps unparseable input usable as a key', () => {
    expect(normalizeUrl('  not a url ')).toBe('not a url');
    expect(domainOf('not a url')).toBe('');
  });
});
