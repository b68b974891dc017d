import { analyseShortQuestion } from './short-answer';

describe('analyseShortQuestion', () => {
  it.each([
    ['Who was born first, Ada Fenwick or Bruno Castellan?', 'choice'],
    ['Which mountain is higher: Mount Arden or The Spire', 'choice'],
    // Two options with no comma before them, after "between", after "which of".
    ["Which magazine was started first Harbour's Magazine or First for Readers?", 'choice'],
    ['Between Corran Roses and Harbor Celebrations, which was introduced first?', 'choice'],
    ['Which of Lanternfly and Orla has more members?', 'choice'],
    // Not two options: what is compared follows the comparative.
    ['Which team won more games in 1990 or 1991?', 'organisation'],
    ['Are both the Marsh Terrier and the Hill Laika dog breeds?', 'yesno'],
    ['In what year was the bridge opened?', 'year'],
    ['How many floors does the tower have?', 'number'],
    ['When did the strike end?', 'date'],
    ['Where does the club play its home games?', 'place'],
    ['Which English midfielder scored the goal?', 'person'],
    ['What Canadian produced the song?', 'person'],
    ['What company does the producer run?', 'organisation'],
    ['Who directed the film?', 'person'],
    ['What type of products did she design?', 'thing'],
    ['The final decided the champion of what season?', 'year'],
    ["What was Ada Fenwick's batting average in her last season?", 'number'],
    ['What is the best league ranking the club has held?', 'number'],
    // The question word that comes first asks; a later one opens a clause.
    ['What is the name of the fight song of the university whose campus is in Lawrence?', 'thing'],
    ['Which cup was famous for a scandal, where the referee was from Scotland?', 'thing'],
    ['Who fumbled the ball when tackled by Ada Fenwick?', 'person'],
    ['What is the name of the stadium where the final was played?', 'place'],
    ['What is the last name of the player who scored twice?', 'person'],
    // A noun WordNet first reads as a person asks for one, listed here or not; an adjective before it does not.
    ['Which physicist first measured the charge?', 'person'],
    ['What other performer joined the band on stage?', 'person'],
    ['What is the official language of the island?', 'thing'],
  ])('%s -> %s', (question, kind) => {
    expect(analyseShortQuestion(question)?.kind).toBe(kind);
  });

  it('the options of a choice follow the last comma or dash before "or"', () => {
    expect(
      analyseShortQuestion(
        'Considering Ada Fenwick and Bruno Castellan, which state did they represent first - Ohio or Iowa?',
      )?.options,
    ).toEqual(['Ohio', 'Iowa']);
    expect(analyseShortQuestion('Who was born first, Ada Fenwick or Bruno Castellan?')?.options).toEqual([
      'Ada Fenwick',
      'Bruno Castellan',
    ]);
    // A title's colon is inside an option; a colon with no comma before the options leads them.
    expect(
      analyseShortQuestion(
        "Which film won an award, Marrow's Kin: The Legacy of Salt or Lantern Hill, the 1970 documentary?",
      )?.options,
    ).toEqual(["Marrow's Kin: The Legacy of Salt", 'Lantern Hill']);
    expect(analyseShortQuestion('Which mountain is higher: Mount Arden or The Spire')?.options).toEqual([
      'Mount Arden',
      'Spire',
    ]);
  });

  it('an open prompt asks for no short answer', () => {
    expect(analyseShortQuestion('Solid-state battery makers and their funding')).toBeNull();
  });
});
