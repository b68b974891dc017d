import { analyse } from './analysis';
import { shortAnswer } from './short-answer';
import { readShortQuestion } from './short-question';
import { directSubject, offSubjectSources } from './subject';
import { page } from './testing/page';

describe('the subject a question asks about directly', () => {
  it('is the words of the names it writes, unless it reaches its answer through another thing', () => {
    expect(directSubject('How many people does Corvane Biolabs employ?', ['corvane', 'biolabs'], false)).toEqual([
      'corvan',
      'biolab',
    ]);
    // The city's page need not name the person born there; the film's page need not name the actor.
    expect(
      directSubject('Which county is the city where Mara Ellison was born located in?', ['mara', 'ellison'], false),
    ).toEqual([]);
    expect(
      directSubject('Who directed the film in which Mara Ellison had a role?', ['mara', 'ellison'], false),
    ).toEqual([]);
    // Asked of a role's holder, whose own page need not name the organisation; asked of the role, it does.
    expect(analyse('At which university did the chief executive of Corvane Biolabs study?').subject).toEqual([]);
    expect(analyse('Who is the chief executive of Corvane Biolabs?').subject).toEqual(['corvan', 'biolab']);
    // A thing described through the name: its own pages need not name it.
    expect(analyse('When was the maker of the Tarn 4 founded?').subject).toEqual([]);
    expect(analyse('How many stores does the retailer owned by Mara Ellison run?').subject).toEqual([]);
    expect(analyse('How many staff does the largest customer of Corvane Biolabs employ?').subject).toEqual([]);
    // A wh-word that asks is no relative clause.
    expect(directSubject('In which year was Corvane Biolabs founded?', ['corvane', 'biolabs'], false)).toEqual([
      'corvan',
      'biolab',
    ]);
  });

  it('marks the pages naming none of its words, only when some page names one', () => {
    const pages = [
      page(1, 'Corvane Biolabs', 'Corvane now has a workforce of 420.'),
      { ...page(2, 'About us', 'Haldor Foods employs 910 people.'), url: 'https://haldor-foods.test/about' },
      { ...page(3, 'Team', 'Our staff of 60.'), url: 'https://corvane-biolabs.test/team' },
    ];
    // Page 3 names the subject by its address.
    expect([...offSubjectSources(['corvan', 'biolab'], pages)]).toEqual([2]);
    expect([...offSubjectSources(['ledgerlark'], pages)]).toEqual([]);
    expect([...offSubjectSources([], pages)]).toEqual([]);
  });

  it("answers with the count its own page states, not another company's sentence that repeats the question's words", () => {
    const pages = [
      page(
        1,
        'Corvane Biolabs',
        'Corvane Biolabs makes assay kits. Corvane now has a workforce of 420, most of them in Tartu.',
      ),
      page(2, 'Haldor Foods', 'Haldor Foods employs 910 people at its two bakeries.'),
    ];
    const answer = shortAnswer('How many people does Corvane Biolabs employ?', pages);
    expect(answer?.value).toBe('420');
    expect(analyse('How many people does Corvane Biolabs employ?').subject).toEqual(['corvan', 'biolab']);
  });

  it('reads "what is the value of" as asking for a number', () => {
    expect(
      readShortQuestion("What is the value of Corvane Biolabs' contract to supply the Tartu clinic?").short?.kind,
    ).toBe('number');
    expect(readShortQuestion('What is Corvane Biolabs worth?').short?.kind).toBe('number');
  });
});
