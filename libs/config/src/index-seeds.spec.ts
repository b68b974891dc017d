import { loadConfig } from './config';
import { parseIndexSeed } from './index-seeds';

describe('parseIndexSeed', () => {
  it('reads a plain seed URL as the site to crawl, under its own address', () => {
    expect(parseIndexSeed('https://example.com/')).toEqual({
      seed: 'https://example.com/',
      fetchUrl: 'https://example.com/',
      publicOrigin: null,
    });
  });

  it('reads PUBLIC_ORIGIN=FETCH_URL as a mirror crawled as the public site', () => {
    expect(parseIndexSeed('https://Acme-Robotics.test=http://127.0.0.1:41234/')).toEqual({
      seed: 'https://Acme-Robotics.test=http://127.0.0.1:41234/',
      fetchUrl: 'http://127.0.0.1:41234/',
      publicOrigin: 'https://acme-robotics.test',
    });
    expect(parseIndexSeed('https://example.com/=https://staging.example.net/docs?v=2').publicOrigin).toBe(
      'https://example.com',
    );
    expect(parseIndexSeed('http://example.com:8080=http://10.0.0.5/').publicOrigin).toBe('http://example.com:8080');
  });

  it('keeps a plain seed whose query string has "=" in it', () => {
    expect(parseIndexSeed('https://example.com/list?page=2&sort=new')).toMatchObject({
      fetchUrl: 'https://example.com/list?page=2&sort=new',
      publicOrigin: null,
    });
    expect(parseIndexSeed('https://example.com?lang=en')).toMatchObject({
      fetchUrl: 'https://example.com?lang=en',
      publicOrigin: null,
    });
  });

  it.each([
    ['https://example.com=', /seed "https:\/\/example.com=": after "=" must come the http\(s\) URL to crawl/],
    ['https://example.com=ftp://mirror.example/', /seed "https:\/\/example.com=ftp:\/\/mirror.example\/": after "="/],
    ['https://example.com=not a url', /after "=" must come the http\(s\) URL/],
    [
      'https://user:pw@example.com=http://127.0.0.1:1/',
      /"https:\/\/user:pw@example.com" before "=" must be a public origin/,
    ],
    ['example.com', /seed "example.com" is neither an http\(s\) URL nor PUBLIC_ORIGIN=FETCH_URL/],
    ['ftp://example.com/', /seed "ftp:\/\/example.com\/" is neither/],
  ])('refuses %s, naming the seed', (seed, message) => {
    expect(() => parseIndexSeed(seed)).toThrow(message);
  });
});

describe('LOCAL_INDEX_SEEDS', () => {
  it('keeps each seed as written', () => {
    const seeds = 'https://a.example/, https://b.example=http://127.0.0.1:9000/';
    expect(loadConfig({ LOCAL_INDEX_SEEDS: seeds }).localIndexSeeds).toEqual([
      'https://a.example/',
      'https://b.example=http://127.0.0.1:9000/',
    ]);
  });

  it('refuses a bad seed at boot with a ConfigError naming the variable and the seed', () => {
    expect(() => loadConfig({ LOCAL_INDEX_SEEDS: 'https://a.example/,https://b.example=' })).toThrow(
      expect.objectContaining({
        name: 'ConfigError',
        message: expect.stringMatching(/^invalid configuration: LOCAL_INDEX_SEEDS seed "https:\/\/b.example="/),
      }),
    );
  });
});
