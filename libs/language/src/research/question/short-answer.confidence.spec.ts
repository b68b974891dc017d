/** The confidence shortAnswer gives an answer of the kind asked (kindConfidence), for "who" and "which team". */
import { tokenize } from '@app/text';
import { candidatesIn, kindConfidence, shortAnswer } from './short-answer';
import { page } from './testing/page';

describe('confidence for "which team"', () => {
  it('is sure only of a name compromise reads as an organisation’s', () => {
    const passages = [
      page(1, 'Harbour Cup final', 'Brask Holloway took the opening kickoff and ran it back 40 yards.'),
      page(2, 'Brask Holloway', 'Brask Holloway took the opening kickoff in the Harbour Cup final.'),
    ];
    expect(shortAnswer('Which team took the opening kickoff in the Harbour Cup final?', passages)).toMatchObject({
      value: 'Brask Holloway',
      confidence: 'medium',
    });
  });
});

describe('confidence for "who"', () => {
  it('rests on the names compromise reads as a person’s (a league or a team is "who" too, but never a sure one)', () => {
    const question = 'The team that lost in the second round was coached by who?';
    const found = candidatesIn(
      'person',
      'The Harbor Kings, coached by Ada Fenwick, compete in NCAA Tier I.',
      new Set(tokenize(question)),
      question,
    );
    expect(found.find((c) => c.text === 'Ada Fenwick')?.person).toBe(true);
    expect(found.find((c) => c.text.startsWith('NCAA'))?.person).toBeUndefined();
  });
});

describe('kindConfidence', () => {
  it('is never high for one word answering "who" (a first name compromise knows, or a word of a name)', () => {
    expect(kindConfidence('Who is the trophy on the logo named for?', 'Roman')).toBe('medium');
    expect(kindConfidence('Who is the head coach of the Otters?', 'Gary Marrick')).toBe('high');
  });
});
