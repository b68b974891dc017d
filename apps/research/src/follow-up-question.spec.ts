import type { FollowUpContext } from '@app/domain';
import { followUpQuestion } from './follow-up-question';

const after = (question: string, answer: string | null = null): FollowUpContext => ({
  interaction_id: 'task_1',
  question,
  answer,
  read: [],
});

describe('followUpQuestion', () => {
  it('names the subject the earlier question gave for a word that refers back', () => {
    expect(followUpQuestion('Where is it headquartered?', after('Who founded Brightwater Foods?'))).toBe(
      'Where is Brightwater Foods headquartered?',
    );
    expect(followUpQuestion('Who is its chief executive?', after('When was Orvik Tramworks founded?'))).toBe(
      "Who is Orvik Tramworks's chief executive?",
    );
  });

  it('takes the subject from the answer when the earlier question named none', () => {
    expect(
      followUpQuestion('When was it founded?', after('Which bakery bakes the most rye bread?', 'Brightwater Foods.')),
    ).toBe('When was Brightwater Foods founded?');
  });

  it('keeps the first subject through a chain of follow-ups', () => {
    const chain = after('Who founded Brightwater Foods?\nWhere is it headquartered?');
    expect(followUpQuestion('How many people does it employ?', chain)).toBe(
      'How many people does Brightwater Foods employ?',
    );
  });

  it('leaves a question that names its own subject, or that follows nothing, as it is', () => {
    expect(followUpQuestion('Where is Orvik Tramworks based?', after('Who founded Brightwater Foods?'))).toBe(
      'Where is Orvik Tramworks based?',
    );
    expect(followUpQuestion('Where is it headquartered?', null)).toBe('Where is it headquartered?');
  });
});
