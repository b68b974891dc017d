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

  it('a missing dictionary folder fails on first use, not when made', () => {
    let missing: Antonyms | undefined;
    expect(() => (missing = new Antonyms('/nonexistent/wordnet'))).not.toThrow();
    expect(() => missing!.of('lose')).toThrow();
  });
});
