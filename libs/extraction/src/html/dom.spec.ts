import fc from 'fast-check';
import { collapse, flattened } from './dom';

const CHUNK = 1 << 16;
const oneRegex = (s: string) => s.replace(/\s+/g, ' ');

describe('collapse', () => {
  it('collapses a long text chunk by chunk exactly as one replace over it would', () => {
    // Pieces repeated past two chunks, so runs of every kind of whitespace meet chunk ends.
    const piece = fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2028', '\u3000', '\ufeff', 'a', 'word', 'é', '  \n ');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 64 }), (pieces, skew) => {
        const unit = pieces.join('');
        const s = 'x'.repeat(skew) + unit.repeat(Math.ceil((2 * CHUNK + 1) / unit.length));
        expect(collapse(s)).toBe(oneRegex(s));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps a run of whitespace across a chunk end whole, and a text with no whitespace as it is', () => {
    const straddling = `${'a'.repeat(CHUNK - 5)}${' \t\n'.repeat(10)}b`;
    expect(collapse(straddling)).toBe(`${'a'.repeat(CHUNK - 5)} b`);
    const solid = 'z'.repeat(3 * CHUNK);
    expect(collapse(solid)).toBe(solid);
    expect(collapse(' '.repeat(3 * CHUNK))).toBe(' ');
    expect(collapse(`${'y'.repeat(CHUNK)} `)).toBe(`${'y'.repeat(CHUNK)} `);
  });

  it('flattened gives back the same string', () => {
    const tree = 'a  b  c  '.repeat(1000).replace(/\s+/g, ' ');
    expect(flattened(tree)).toBe(tree);
    expect(flattened('')).toBe('');
  });
});
