import { cutAtWord, ExcerptBudget } from './excerpt-budget';

describe('ExcerptBudget', () => {
  it('passes every string whole without a budget', () => {
    const budget = new ExcerptBudget(null);
    expect(budget.take('a'.repeat(10_000))).toHaveLength(10_000);
    expect(budget.takeAll(['one', 'two'])).toEqual(['one', 'two']);
  });

  it('spends one budget across strings in the order offered, then gives nothing', () => {
    const budget = new ExcerptBudget(25);
    expect(budget.take('The tram opens in May.')).toBe('The tram opens in May.'); // 22
    expect(budget.takeAll(['Tickets cost two euros.', 'Trams run every ten minutes.'])).toEqual(['Tic']);
    expect(budget.take('Late')).toBe('');
    expect(budget.takeAll(['More text'])).toEqual([]);
  });

  it('stops after a cut, so no stray word follows a shortened string', () => {
    const budget = new ExcerptBudget(20);
    expect(budget.take('Battery plant opens near the river')).toBe('Battery plant opens');
    expect(budget.take('x')).toBe('');
  });
});

describe('cutAtWord', () => {
  it('cuts at the last word boundary within the limit', () => {
    expect(cutAtWord('Battery plant opens near the river', 22)).toBe('Battery plant opens');
    expect(cutAtWord('Battery plant opens near the river', 19)).toBe('Battery plant opens');
  });

  it('hard-cuts when the nearest boundary would lose more than half', () => {
    expect(cutAtWord('An extraordinarilylongword', 10)).toBe('An extraor');
    expect(cutAtWord('x', 0)).toBe('');
  });

  it('never exceeds the limit and leaves short text alone', () => {
    const text = 'one two three four five six seven eight nine ten';
    for (let max = 0; max <= text.length + 2; max++) expect(cutAtWord(text, max).length).toBeLessThanOrEqual(max);
    expect(cutAtWord('short', 10)).toBe('short');
  });
});
