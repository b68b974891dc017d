import { filterRowsExtractively } from './row-filter';

const rows = [
  {
    url: 'https://news.example.test/a',
    title: 'Tram extension approved',
    snippet: 'The council approved the tram line.',
    date: '2026-03-01',
    domain: 'news.example.test',
  },
  {
    url: 'https://blog.test/b',
    title: 'Sodium-ion cells',
    snippet: 'A teardown of sodium-ion cells.',
    date: '2025-12-01',
    domain: 'blog.test',
  },
  { url: 'https://undated.test/c', title: 'Tram history', snippet: 'Old trams.', date: null, domain: 'undated.test' },
];

describe('filterRowsExtractively', () => {
  it.each([
    ['mentions tram', [true, false, true]],
    ['mentions "sodium-ion"', [false, true, false]],
    ['published after 2026-01-01', [true, false, false]],
    ['published before 2026-01-01', [false, true, false]],
    ['from domain example.test', [true, false, false]],
    ['mentions tram and published after 2026-01-01', [true, false, false]],
  ])('%s', (predicate, kept) => expect(filterRowsExtractively(predicate, rows)).toEqual({ kept, note: null }));

  it('says when a predicate is outside what it reads, instead of guessing', () => {
    const verdict = filterRowsExtractively('is written by an expert', rows);
    expect(verdict.kept).toBeNull();
    expect(verdict.note).toMatch(/cannot evaluate "is written by an expert"/);
  });
});
