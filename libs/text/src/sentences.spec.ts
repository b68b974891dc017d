import { sentenceRanges, sentences, sentenceSpans } from './sentences';

// Random text from a small alphabet that exercises every rule (cases, digits, sentence marks,
// line breaks), so the fast rule is checked against the reference one.
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

describe('sentences (excerpts: abbreviation-aware)', () => {
  it('splits sentences but not after abbreviations, initials or decimals', () => {
    expect(
      sentences('Dr. Smith met J. R. Jones at 3.5 km from the U.S. border. Then they left! Did they return? Yes.'),
    ).toEqual([
      'Dr. Smith met J. R. Jones at 3.5 km from the U.S. border.',
      'Then they left!',
      'Did they return?',
      'Yes.',
    ]);
  });

  it('reads a run of initials as one abbreviation ("R.K. Entertainment", "J.R.R. Tolkien")', () => {
    expect(sentences('The name was coined by R.K. Entertainment founder Park Jin-su. It stuck.')).toEqual([
      'The name was coined by R.K. Entertainment founder Park Jin-su.',
      'It stuck.',
    ]);
    expect(sentenceSpans('Its author is J.R.R. Tolkien. He taught at Oxford.').map((s) => s.text)).toEqual([
      'Its author is J.R.R. Tolkien.',
      'He taught at Oxford.',
    ]);
  });
});

describe('sentenceRanges (index snippets: cheapest rule)', () => {
  it('cuts sentences after their closing mark and at line breaks, as the look-behind rule did', () => {
    const reference = (text: string): Array<[number, number]> => {
      const spans: Array<[number, number]> = [];
      const rule = /(?<=[.!?])\s+|\n+/g;
      let start = 0;
      for (let m = rule.exec(text); m; m = rule.exec(text)) {
        if (m.index > start && text.slice(start, m.index).trim()) spans.push([start, m.index]);
        start = m.index + m[0].length;
      }
      if (start < text.length && text.slice(start).trim()) spans.push([start, text.length]);
      return spans;
    };
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomText(seed, ALPHABET, 40);
      expect(sentenceRanges(text)).toEqual(reference(text));
    }
  });
});

describe('sentenceSpans (language engines: verbatim spans)', () => {
  it("keeps each sentence's offsets and text, breaks only before a capital or digit, and before list items", () => {
    const text = 'Acme builds robots, e.g. the picker arm. It ships in 2026.\n- ships in March';
    expect(sentenceSpans(text)).toEqual([
      { start: 0, end: 40, text: 'Acme builds robots, e.g. the picker arm.' },
      { start: 41, end: 58, text: 'It ships in 2026.' },
      { start: 59, end: 75, text: '- ships in March' },
    ]);
  });

  it('does not end a sentence at an initial or an abbreviation', () => {
    const text = 'The film was directed by R. Tamsin Oduya. Dr. Bell produced it. It opened in 2004.';
    expect(sentenceSpans(text).map((s) => s.text)).toEqual([
      'The film was directed by R. Tamsin Oduya.',
      'Dr. Bell produced it.',
      'It opened in 2004.',
    ]);
  });
});
