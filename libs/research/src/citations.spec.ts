import { assertCitationsResolve, UnresolvedCitationError } from './citations';

describe('assertCitationsResolve', () => {
  const sources = [{ index: 1 }, { index: 2 }];

  it('accepts a report whose citations are all sources', () => {
    expect(() =>
      assertCitationsResolve('# T\n\nA. [1] B [1, 2].\n\n## Sources\n\n[1] a — u\n[2] b — v', sources),
    ).not.toThrow();
  });

  it('names every citation that resolves to no source', () => {
    let error: unknown;
    try {
      assertCitationsResolve('A. [1] B. [3] C [2, 7].', sources);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UnresolvedCitationError);
    expect(error).toMatchObject({ missing: [3, 7], message: 'the report cites sources that do not exist: [3], [7]' });
  });
});
