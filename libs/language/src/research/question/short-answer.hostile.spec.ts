import { shortAnswer } from './short-answer';
import { page } from './testing/page';

describe('a hostile prompt', () => {
  it('is read as its bounded question (400 characters): 50,000 names after them change nothing', () => {
    const passages = [
      page(1, 'Harbor Otters', 'Only six teams, the Harbor Otters among them, have won 15 games in one season.'),
    ];
    const question = 'How many teams have won 15 games in one season?';
    const names = Array.from({ length: 50_000 }, (_, i) => `Zq${i.toString(36)} Word`).join(', ');
    const prompt = `${question} ${names}`;
    expect(shortAnswer(prompt, passages)).toEqual(shortAnswer(prompt.slice(0, 400), passages));
    expect(shortAnswer(question, passages)?.value).toBe('six');
  });
});
