import { answerUnits } from './answer-units';
import { resolveReference } from './follow-up';
import { analyseQuestion, questionKind } from './question-shape';
import { typedAnswer } from './typed-answer';

const passage = (source: number, title: string, text: string) => ({ source, title, text });
const answer = (question: string, passages: ReturnType<typeof passage>[]) => {
  const shape = analyseQuestion(question);
  return typedAnswer(question, shape, answerUnits(passages, shape, 20, 600));
};

describe('questionKind', () => {
  it.each([
    ['In what year was Brightwater Foods founded?', 'year'],
    ['When was Brightwater Foods established?', 'year'],
    ['When did the Tartu plant open?', 'date'],
    ['On what date did the merger close?', 'date'],
    ['How much revenue did Brightwater report for fiscal 2024?', 'money'],
    ['What was the revenue of Brightwater in 2024?', 'money'],
    ['How many people does Brightwater employ?', 'number'],
    ['What percentage of sales come from exports?', 'percent'],
    ['Who is the chief executive of Brightwater Foods?', 'person'],
    ['Who acquired Brightwater Foods?', 'organisation'],
    ['Which company supplies the cocoa?', 'organisation'],
    ['Where did the chief executive of Brightwater Foods study?', 'organisation'],
    ['Where is Brightwater Foods headquartered?', 'place'],
    ['In which city does Brightwater roast its coffee?', 'place'],
    ['Does Brightwater Foods sell outside Estonia?', 'boolean'],
    ['Is Brightwater publicly traded?', 'boolean'],
    // "How do … work" is not "how many": only the listed forms ask for a number.
    ['How do heat pumps work in cold climates', 'text'],
    ['Explain how EV batteries are recycled', 'text'],
  ])('%s -> %s', (question, kind) => {
    expect(questionKind(question)).toBe(kind);
  });
});

describe('analyseQuestion', () => {
  it('separates the entity, the predicate (with the words pages use) and a role link', () => {
    const shape = analyseQuestion('Where did the chief executive of Brightwater Foods study?');
    expect([...shape.entity].sort()).toEqual(['brightwater', 'food']);
    expect(shape.entityName).toBe('Brightwater Foods');
    expect(shape.relation).toEqual({ role: 'chief executive', phrase: 'the chief executive of Brightwater Foods' });
    expect(shape.predicate.get('study')).toBe(2);
    expect(shape.predicate.has('graduat')).toBe(true);
    expect(analyseQuestion("Where did Brightwater Foods' founder grow up?").relation?.role).toBe('founder');
    expect(analyseQuestion('In what year was Brightwater Foods founded?').relation).toBeNull();
  });
});

describe('typedAnswer', () => {
  it('prefers the sentence carrying a value of the asked kind over one that only shares words', () => {
    const found = answer('In what year was Brightwater Foods founded?', [
      passage(
        1,
        'Brightwater Foods annual report',
        'Annual report of Brightwater Foods for fiscal year 2022. Brightwater Foods had a good year.',
      ),
      passage(2, 'About Brightwater Foods', 'We bake in Tartu. It was founded in 1997 by two bakers.'),
    ]);
    expect(found?.value).toBe('1997');
    expect(found?.unit.source).toBe(2);
  });

  it('never answers with a value the question itself contains, and reads money next to its word', () => {
    const found = answer('How much revenue did Brightwater Foods report for fiscal 2024?', [
      passage(
        1,
        'Brightwater Foods results 2024',
        'Brightwater Foods published its results for fiscal 2024 on 3 March. Total revenue for fiscal 2024 was $25 million, up from $18 million.',
      ),
    ]);
    expect(found?.value).toBe('$25 million');
  });

  it('picks the table cell of the row and column the question names', () => {
    const found = answer('What was the revenue of Brightwater Foods in FY2023?', [
      passage(
        1,
        'Brightwater Foods results',
        'Key figures of Brightwater Foods.\n\nMetric\tFY2023\tFY2024\nRevenue\t$18.2 million\t$25.0 million\nEmployees\t120\t145',
      ),
    ]);
    expect(found?.value).toBe('$18.2 million');
  });

  it('reads a bare figure with the unit its row label gives, in the column the question names', () => {
    const found = answer("What was Skarvik Blade Works' revenue in FY2023?", [
      passage(
        1,
        'Skarvik Blade Works annual report',
        'Key figures\n\nKey figure\tFY2022\tFY2023\nRevenue (€ million)\t178.9\t212.4\nEmployees\t968\t1,043',
      ),
    ]);
    expect(found?.value).toBe('€212.4 million');
  });

  it('picks the table row whose cells repeat the figures the question gives', () => {
    const found = answer('How much does a four-week Intensive Spanish course cost at Corvallen Idiomas?', [
      passage(
        1,
        'Corvallen Idiomas courses',
        'Course\tLessons per week\tLength\tPrice\nIntensive Spanish\t30\t2 weeks\t€430\nIntensive Spanish\t30\t4 weeks\t€780',
      ),
    ]);
    expect(found?.value).toBe('€780');
  });

  it('answers what is with what is, not with what is planned, unless the question asks about plans', () => {
    const pages = [
      passage(1, 'The Example Daily', 'HelioGrid to build battery cabinet plant in Harborview'),
      passage(
        2,
        'About HelioGrid',
        'HelioGrid builds inverters in Freiburg and assembles battery stacks in a plant near Valencia.',
      ),
    ];
    expect(answer("Where is HelioGrid's battery plant?", pages)?.value).toBe('Valencia');
    expect(answer('Where will HelioGrid build its new battery plant?', pages)?.value).toBe('Harborview');
  });

  it('resolves a follow-up pronoun with the name an earlier message gave', () => {
    expect(resolveReference('Where is its battery plant?', 'Tell me about HelioGrid.')).toBe(
      "Where is HelioGrid's battery plant?",
    );
    expect(resolveReference('When was it founded?', 'What does Acme Robotics make?')).toBe(
      'When was Acme Robotics founded?',
    );
    expect(resolveReference('Where is Acme based?', 'Tell me about HelioGrid.')).toBe('Where is Acme based?');
  });

  it('does not answer with a figure that describes something the question never names', () => {
    const found = answer('How long does the electric ferry take from the old port to the university?', [
      passage(
        1,
        'Electric ferry line',
        'A battery-electric ferry began carrying passengers between the old port and the university campus, cutting a 40-minute bus ride to 12 minutes on the water.',
      ),
    ]);
    expect(found?.value).toBe('12');
  });

  it('answers yes/no from the sentence that states it, and nothing from pages about another entity', () => {
    expect(
      answer('Does Brightwater Foods sell outside Estonia?', [
        passage(1, 'Brightwater Foods', 'Brightwater Foods has never sold its bread outside Estonia.'),
      ])?.value,
    ).toBe('no');
    expect(
      answer('In what year was Brightwater Foods founded?', [
        passage(1, 'Harbour Mills', 'Harbour Mills was founded in 1931.'),
      ]),
    ).toBeNull();
  });
});
