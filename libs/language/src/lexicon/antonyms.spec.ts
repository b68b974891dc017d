import { Antonyms, antonyms } from './antonyms';

describe('opposites from WordNet', () => {
  const dictionary = antonyms();

  it('reads the antonym pointers of verbs, adjectives and adverbs', () => {
    expect(dictionary).not.toBeNull();
    expect(dictionary!.of('lose')).toContain('win');
    expect(dictionary!.of('win')).toContain('lose');
    expect(dictionary!.of('first')).toContain('last');
    expect(dictionary!.of('increase')).toContain('decrease');
    expect(dictionary!.of('Private')).toContain('public');
  });

  it('knows no opposite of a word without one, nor of a word WordNet lacks', () => {
    expect(dictionary!.of('ancient')).toEqual([]);
    expect(dictionary!.of('zzqxv')).toEqual([]);
  });

  it('is null where the dictionary is not installed, and a missing folder fails on first use only', () => {
    const missing = new Antonyms('/nonexistent/wordnet');
    expect(() => missing.of('lose')).toThrow();
  });
});
