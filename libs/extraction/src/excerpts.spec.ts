import { focusExcerpts } from './excerpts';

const TEXT = [
  'Fernley Energy Center will store surplus solar power for the evening peak in northern Nevada. It is a 100 megawatt, 400 megawatt-hour battery system.',
  'The facility will use lithium iron phosphate cells housed in 160 containerised enclosures on a 22-acre site. Construction is expected to create about 250 jobs at its peak.',
  'The project will pay an estimated $38 million in state and local taxes over its life. Meridian expects to finance the project with tax equity and construction debt.',
  'Pricing for the energy has not been disclosed. Analysts expect prices for four-hour storage contracts in the region to keep falling through 2026.',
  'Meridian is headquartered in Oakland, California, and has 1.8 gigawatt-hours of storage in operation or under construction.',
].join('\n\n');

describe('focusExcerpts', () => {
  it('without an objective returns the leading paragraphs that fit, whole', () => {
    const [p0, p1] = TEXT.split('\n\n');
    expect(focusExcerpts(TEXT, undefined, p0.length + p1.length + 1)).toEqual([p0, p1]);
    // One character short of the second paragraph: whole paragraphs only, so just the first.
    expect(focusExcerpts(TEXT, undefined, p0.length + p1.length)).toEqual([p0]);
  });

  it('cuts a first paragraph that does not fit at a sentence, or at a word when a sentence does not fit', () => {
    expect(focusExcerpts(TEXT, undefined, 100)).toEqual([
      'Fernley Energy Center will store surplus solar power for the evening peak in northern Nevada.',
    ]);
    const tiny = focusExcerpts(TEXT, undefined, 30);
    expect(tiny).toEqual(['Fernley Energy Center will…']);
    expect(tiny[0].length).toBeLessThanOrEqual(30);
  });

  it('picks the sentences about the objective, in document order, within the budget', () => {
    const out = focusExcerpts(TEXT, 'How many jobs, and how much in local taxes?', 200);
    expect(out).toEqual([
      'Construction is expected to create about 250 jobs at its peak.',
      'The project will pay an estimated $38 million in state and local taxes over its life.',
    ]);
    expect(out.join('').length).toBeLessThanOrEqual(200);
  });

  it('matches inflected forms (pricing / prices) and weighs rare terms above common ones', () => {
    const out = focusExcerpts(TEXT, 'price of the storage', 160);
    expect(out[0]).toMatch(/^(Pricing for the energy|Analysts expect prices)/);
    // "storage" appears in three paragraphs, "price" in one: the price sentences come first in rank.
    expect(out.join(' ')).toContain('Pricing for the energy has not been disclosed.');
  });

  it('joins consecutive picks from one paragraph into one excerpt', () => {
    const out = focusExcerpts(TEXT, 'pricing prices four-hour storage contracts disclosed', 400);
    expect(out).toContain(
      'Pricing for the energy has not been disclosed. Analysts expect prices for four-hour storage contracts in the region to keep falling through 2026.',
    );
  });

  it('falls back to the leading paragraphs when nothing matches, and is deterministic', () => {
    expect(focusExcerpts(TEXT, 'zebra crossing', 200)).toEqual(focusExcerpts(TEXT, undefined, 200));
    expect(focusExcerpts(TEXT, 'the and of', 200)).toEqual(focusExcerpts(TEXT, undefined, 200)); // only stop words
    const a = focusExcerpts(TEXT, 'battery storage Nevada', 250);
    expect(focusExcerpts(TEXT, 'battery storage Nevada', 250)).toEqual(a);
  });

  it('returns nothing for an empty text or budget', () => {
    expect(focusExcerpts('', 'x', 100)).toEqual([]);
    expect(focusExcerpts(TEXT, 'jobs', 0)).toEqual([]);
  });
});
