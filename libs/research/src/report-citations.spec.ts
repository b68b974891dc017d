import {
  citedIndexes,
  claimSentences,
  keepCitedClaims,
  sourcesSection,
  stripInvalidCitations,
  uncitedClaims,
} from './report-citations';

const report = [
  '# Batteries',
  '',
  'Batteries are shredded. [1] Cobalt is recovered [2][3]. Costs fall [1, 4].',
  '',
  '## Costs',
  '',
  '- Recycling costs 1,000 euros per tonne. [4]',
  '- Transport is the most expensive step.',
  'See [the guide](https://example.org) for e.g. details. [2]',
  '',
  'No source answered: who recycles most',
  '',
  '## Sources',
  '',
  '[1] One — https://a.example',
  'Anything here is the list, not a claim',
].join('\n');

describe('report citations', () => {
  it('finds every cited index, including grouped ones, but not numeric link texts', () => {
    expect(citedIndexes(report)).toEqual([1, 2, 3, 4]);
    expect(citedIndexes('See [7](https://x.example) and [8].')).toEqual([8]);
  });

  it('splits claims so citations stay with the sentence they follow', () => {
    expect(claimSentences('Batteries are shredded. [1] Cobalt is recovered [2][3]. Costs fall [1, 4].')).toEqual([
      'Batteries are shredded. [1]',
      'Cobalt is recovered [2][3].',
      'Costs fall [1, 4].',
    ]);
    // "e.g." followed by a lower-case word is not a sentence end.
    expect(claimSentences('Use e.g. lithium. [1]')).toEqual(['Use e.g. lithium. [1]']);
  });

  it('lists uncited claim sentences; headings, gap notes and the sources list are exempt', () => {
    expect(uncitedClaims(report)).toEqual(['Transport is the most expensive step.']);
    expect(uncitedClaims('# Title\n\nNo source answered: x\n\n## Sources\n\n[1] a — b')).toEqual([]);
    expect(uncitedClaims('A claim. [1] An uncited one. Another [2].')).toEqual(['An uncited one.']);
  });

  it('strips citations of unknown sources, keeping the valid part of a group', () => {
    expect(stripInvalidCitations('A [1]. B [9]. C [2, 9]. D [9][1].', new Set([1, 2]))).toBe('A [1]. B. C [2]. D[1].');
  });

  it('keeps only cited claims and drops the model’s own sources list', () => {
    expect(keepCitedClaims(report)).toBe(
      [
        '# Batteries',
        '',
        'Batteries are shredded. [1] Cobalt is recovered [2][3]. Costs fall [1, 4].',
        '',
        '## Costs',
        '',
        '- Recycling costs 1,000 euros per tonne. [4]',
        'See [the guide](https://example.org) for e.g. details. [2]',
        '',
        'No source answered: who recycles most',
      ].join('\n'),
    );
  });

  it('writes the sources list for cited indexes only', () => {
    const sources = [
      { index: 1, url: 'https://a.example', title: 'A\n title ' },
      { index: 2, url: 'https://b.example', title: '' },
      { index: 3, url: 'https://c.example', title: 'C' },
    ];
    expect(sourcesSection([1, 2, 9], sources)).toBe(
      '## Sources\n\n[1] A title — https://a.example\n[2] https://b.example — https://b.example',
    );
    expect(sourcesSection([], sources)).toBe('## Sources\n\nNo sources were cited.');
  });
});
