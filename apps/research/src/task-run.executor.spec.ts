import { answerFields } from './task-run.executor';

describe('answerFields: the output fields that ask for the answer itself', () => {
  it('finds a string field named answer, final_answer or short_answer', () => {
    expect(
      answerFields({
        type: 'object',
        properties: {
          answer: { type: 'string' },
          final_answer: { type: ['string', 'null'] },
          short_answer: { type: 'string' },
        },
      }),
    ).toEqual(['answer', 'final_answer', 'short_answer']);
  });

  it('finds a string field described as the answer to the task or question', () => {
    expect(
      answerFields({
        type: 'object',
        properties: {
          result: { type: 'string', description: 'The answer to the question, short' },
          city: { type: 'string', description: 'the city' },
        },
      }),
    ).toEqual(['result']);
  });

  it('leaves other fields, and answers that are not strings, to the schema filler', () => {
    expect(
      answerFields({
        type: 'object',
        properties: {
          answers: { type: 'array', items: { type: 'string' } },
          answer: { type: 'integer' },
          founded: { type: 'string', description: 'year founded' },
        },
      }),
    ).toEqual([]);
    expect(answerFields({ type: 'string' })).toEqual([]);
  });
});
