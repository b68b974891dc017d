import { sentenceRanges as sentenceSpans, words as tokenize } from '@app/text';
import { processTerm, snippetFor, stemBounds, terms } from './text-analysis';

describe('text analysis', () => {
  it('folds case, accents and plurals, and drops stop words', () => {
    expect(terms('The Batteries of Über-cities and their processes')).toEqual(['battery', 'uber', 'city', 'process']);
    expect(processTerm('news')).toBe('news');
    expect(processTerm('analysis')).toBe('analysis');
  });

  describe('snippetFor', () => {
    const text = [
      'Acme builds robots for warehouses.',
      'Our offices are in Pittsburgh.',
      'The picker arm grasps single items from mixed bins at 1,200 picks per hour.',
      'Deliveries start next year.',
      'Each arm ships with a light curtain so it can work beside a packing bench without a cage around it.',
      'Support contracts cover spare grippers.',
    ].join(' ');

    it('centres on the sentence matching most query terms and widens it to about 200 characters', () => {
      const snippet = snippetFor(text, terms('picker arm bins'));
      expect(snippet.startsWith('The picker arm grasps')).toBe(true);
      expect(snippet.length).toBeGreaterThanOrEqual(200);
      expect(snippet).toContain('Deliveries start next year.');
      expect(snippet).not.toContain('Pittsburgh');
    });

    it('cuts long text near 300 characters at a word boundary', () => {
      const snippet = snippetFor(`${'word '.repeat(200)}picker.`, ['picker']);
      expect(snippet.length).toBeLessThanOrEqual(301);
      expect(snippet.endsWith('…')).toBe(true);
    });

    it('falls back to the description, then the opening, when no sentence matches', () => {
      expect(snippetFor(text, ['zeppelin'], 'A robot maker.')).toBe('A robot maker.');
      expect(snippetFor(text, ['zeppelin'])).toMatch(/^Acme builds robots/);
    });
  });

  // Random text from a small alphabet that exercises every rule (cases, digits, stop words,
  // plurals, sentence marks, line breaks), so the fast paths are checked against the general ones.
  const randomText = (seed: number, alphabet: string[], words: number): string => {
    let state = seed;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    return Array.from({ length: words }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  };
  const ALPHABET = [
    'The ',
    'cities ',
    'City',
    ' flies',
    'a',
    'B',
    '7',
    '3d ',
    'x-ray ',
    'and ',
    '. ',
    '! ',
    '?',
    '\n',
    '\r\n',
    '  ',
    'Process',
    'es ',
    'news ',
    ', ',
  ];

  it('splits ASCII text into the same terms as the Unicode path', () => {
    const general = (text: string) =>
      tokenize(text)
        .map(processTerm)
        .filter((t): t is string => t !== null);
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomText(seed, ALPHABET, 40);
      expect(terms(text)).toEqual(general(text));
    }
  });

  it('bounds the terms of each sentence the same on text lower-cased in place and text folded sentence by sentence', () => {
    const wanted = ['city', 'fly', 'process', 'ray'];
    const typographic = 'Cities — “flies” · X-ray processes. Nothing here… City!\nProcess';
    const accented = typographic.replace('Nothing', 'Nöthing');
    const a = stemBounds(typographic, sentenceSpans(typographic), wanted);
    const b = stemBounds(accented, sentenceSpans(accented), wanted);
    expect([...a]).toEqual([...b]);
    expect([...a]).toEqual([4, 1, 1]);
  });

  it('finds a plural the query folded to its singular ("cities" for "city")', () => {
    const text = 'Nothing to see in this first sentence at all. Clinics now open in seven cities across the north.';
    // The stem of "city" is "cit": "cities" does not hold "city".
    expect(snippetFor(text, ['city'], 'A directory of clinics.')).toContain('Clinics now open in seven cities');
  });
});
