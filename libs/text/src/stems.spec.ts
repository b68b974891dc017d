import { deepStem, singular, stem } from './stems';
import { INDEX_STOP_WORDS, QUERY_STOP_WORDS } from './stop-words';
import { tokenize } from './tokens';

describe('deepStem (excerpts)', () => {
  it('stems the common English suffixes to one form', () => {
    expect(new Set(['price', 'prices', 'priced', 'pricing'].map(deepStem)).size).toBe(1);
    expect(new Set(['install', 'installed', 'installing', 'installation'].map(deepStem)).size).toBe(1);
    expect(new Set(['policy', 'policies'].map(deepStem)).size).toBe(1);
    expect(deepStem('run')).toBe(deepStem('running'));
    expect(deepStem('2024')).toBe('2024');
  });
});

describe('the named differences between the analysers', () => {
  it('stems at three strengths', () => {
    expect(['installation', 'installing', 'cities', 'news'].map(stem)).toEqual([
      'installation',
      'install',
      'city',
      'new',
    ]);
    expect(['installation', 'installing', 'cities', 'news'].map(singular)).toEqual([
      'installation',
      'installing',
      'city',
      'news',
    ]);
    expect(['installation', 'installing', 'cities', 'news'].map(deepStem)).toEqual([
      'install',
      'install',
      'city',
      'new',
    ]);
  });

  it('drops the words objectives are phrased with from queries, not from the index', () => {
    expect(QUERY_STOP_WORDS.has('find')).toBe(true);
    expect(INDEX_STOP_WORDS.has('find')).toBe(false);
    expect(tokenize('Find information about recycling batteries')).toEqual(['recycl', 'battery']);
  });
});
