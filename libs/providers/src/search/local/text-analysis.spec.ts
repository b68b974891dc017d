import { processTerm, snippetFor, terms } from './text-analysis';

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
});
