/** shortAnswer on yes-or-no questions about two things: both of a kind, both of a nationality, the same nationality. */
import { shortAnswer } from './short-answer';
import { page } from './testing/page';

describe('yes or no: both of a kind', () => {
  it('counts a word of a name the question writes once more as what it asks ("specialized in pizza")', () => {
    const answer = shortAnswer("Are both Marlo's Pizza and Gallo's specialized in pizza?", [
      page(1, "Marlo's Pizza", "Marlo's Pizza is an American restaurant franchise headquartered in Louisville."),
      page(2, "Gallo's", "Gallo's is a restaurant chain specializing in pizza, based in Dedham."),
    ]);
    expect(answer).toMatchObject({ value: 'yes', confidence: 'high' });
  });

  it('says nothing where a word of what it asks is on neither page ("Siberian dogs" of two dogs from elsewhere)', () => {
    const answer = shortAnswer('Are both the Marsh Terrier and the Hill Laika Siberian dogs?', [
      page(1, 'Marsh Terrier', 'The Marsh Terrier is a dog breed from Wales.'),
      page(2, 'Hill Laika', 'The Hill Laika is a hunting dog from Norway.'),
    ]);
    expect(answer).toBeNull();
  });
});

describe('yes or no: both of a nationality', () => {
  it('is no when one page places its subject in another country, however the pages word it', () => {
    // Neither page says "American": one is in Sarasota, Florida, the other in Austria.
    const answer = shortAnswer('Are the Gulf Coast Institute and FH Steinmark both American universities?', [
      page(1, 'Gulf Coast Institute', 'The Gulf Coast Institute is a public university located in Sarasota, Florida.'),
      page(2, 'FH Steinmark', 'FH Steinmark is one of the largest universities of applied sciences in Austria.'),
    ]);
    expect(answer).toMatchObject({ value: 'no', confidence: 'medium' });
  });

  it('is yes when both are of it, stated or by place', () => {
    const answer = shortAnswer('Are the Gulf Coast Institute and Harbor College both American universities?', [
      page(1, 'Gulf Coast Institute', 'The Gulf Coast Institute is a public university located in Sarasota, Florida.'),
      page(2, 'Harbor College', 'Harbor College is an American private university.'),
    ]);
    expect(answer).toMatchObject({ value: 'yes', confidence: 'high' });
  });
});

describe('the same nationality', () => {
  it('compares the countries, however each page words it', () => {
    const answer = shortAnswer('Are Ada Fenwick and Bruno Castellan of the same nationality?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 1946) is an American novelist and essayist.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan is a short story writer who lives in Sarasota, Florida.'),
    ]);
    expect(answer).toMatchObject({ value: 'yes', confidence: 'high' });
  });

  it('is a sure yes when both openings name it, an unsure no when they differ', () => {
    const same = shortAnswer('Are Ada Fenwick and Bruno Castellan of the same nationality?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 1946) is an American novelist and essayist.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan is an American short story writer.'),
    ]);
    expect(same).toMatchObject({ value: 'yes', confidence: 'high' });
    const differ = shortAnswer('Are Ada Fenwick and Bruno Castellan of the same nationality?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 1946) is an American novelist and essayist.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan is an Italian short story writer.'),
    ]);
    expect(differ).toMatchObject({ value: 'no', confidence: 'medium' });
  });
});
