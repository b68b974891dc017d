import { answerUnits } from './answer-units';
import { analyseQuestion } from './question-shape';
import { roleHolder } from './role-holder';

const passage = (source: number, title: string, text: string) => ({ source, title, text });

describe('roleHolder', () => {
  it.each([
    ['Our chief executive, Dana Whitcombe, joined in 2015.'],
    ['Dana Whitcombe, chief executive since 2015, opened the bakery.'],
    ['The company is led by chief executive Dana Whitcombe.'],
    ['Dana Whitcombe (chief executive) opened the new bakery.'],
    ['The Chief Executive of Brightwater Foods is Dr Dana Whitcombe, a miller by training.'],
  ])('finds the name next to the role: %s', (text) => {
    const shape = analyseQuestion('Where did the chief executive of Brightwater Foods study?');
    expect(
      roleHolder(shape, answerUnits([passage(1, 'Brightwater Foods leadership', text)], shape, 20, 600))?.name,
    ).toBe('Dana Whitcombe');
  });

  it('takes no nationality for a name', () => {
    const shape = analyseQuestion('Where was the director of the Halden Institute born?');
    const units = answerUnits(
      [
        passage(
          1,
          'Halden Institute news',
          'Its director has written to the Scottish government asking for longer grants.',
        ),
      ],
      shape,
      20,
      600,
    );
    expect(roleHolder(shape, units)).toBeNull();
  });

  it('follows roles with qualifiers and department heads', () => {
    expect(
      analyseQuestion('In what year did the clinical director of Quillmoss Dental qualify?').relation?.phrase,
    ).toBe('the clinical director of Quillmoss Dental');
    expect(
      analyseQuestion('How many patents does the head of engineering at Kestrelwick Aeronautics hold?').relation
        ?.phrase,
    ).toBe('the head of engineering at Kestrelwick Aeronautics');
    const shape = analyseQuestion('In what year did the clinical director of Quillmoss Dental qualify?');
    const units = answerUnits(
      [passage(1, 'Quillmoss Dental team', 'Dr Inês Valadares has been our Clinical Director since 2015.')],
      shape,
      20,
      600,
    );
    // The title is not part of the name the person's own pages use.
    expect(roleHolder(shape, units)?.name).toBe('Inês Valadares');
    // Only the entity's own pages say who holds its role.
    expect(
      roleHolder(
        shape,
        answerUnits(
          [passage(1, 'Harbour Clinic', 'Dr Ana Lopes has been our Clinical Director since 2011.')],
          shape,
          20,
          600,
        ),
      ),
    ).toBeNull();
  });

  it('reads "the person who founded X" as a role, and "led by" / "headed by" as who holds it', () => {
    const founder = analyseQuestion('Where was the person who founded Brightwater Foods born?');
    expect(founder.relation).toEqual({ role: 'founder', phrase: 'the person who founded Brightwater Foods' });
    const ceo = analyseQuestion('Where did the chief executive of Brightwater Foods grow up?');
    expect(
      roleHolder(
        ceo,
        answerUnits(
          [
            passage(
              1,
              'Brightwater Foods',
              'Since 2019 Brightwater Foods has been led by Anneli Saar, a former miller.',
            ),
          ],
          ceo,
          20,
          600,
        ),
      )?.name,
    ).toBe('Anneli Saar');
    const brewer = analyseQuestion('Where did the head brewer of Quillbrook Brewing train?');
    expect(brewer.relation?.role).toBe('head brewer');
    expect(
      roleHolder(
        brewer,
        answerUnits(
          [
            passage(
              1,
              'Quillbrook Brewing team',
              'Our head brewer is Tine Kovač, who has run the brewhouse since 2016.',
            ),
          ],
          brewer,
          20,
          600,
        ),
      )?.name,
    ).toBe('Tine Kovač');
  });

  it('reads the role from its verb, and takes a first name when that is all the page gives', () => {
    const founder = analyseQuestion('Where was the founder of Brightwater Foods born?');
    expect(
      roleHolder(
        founder,
        answerUnits(
          [
            passage(
              1,
              'Brightwater Foods history',
              'In 1997 Mari Tamm founded the bakery that became Brightwater Foods.',
            ),
          ],
          founder,
          20,
          600,
        ),
      )?.name,
    ).toBe('Mari Tamm');
    const ceo = analyseQuestion('Where did the chief executive of Skarnvik Blade Works study?');
    const units = answerUnits(
      [
        passage(
          1,
          'Skarnvik Blade Works leadership',
          'She is our chief executive and a keen sailor. Mette joined Skarnvik as chief executive in 2017.',
        ),
      ],
      ceo,
      20,
      600,
    );
    expect(roleHolder(ceo, units)?.name).toBe('Mette');
  });

  it('finds who founded it', () => {
    const shape = analyseQuestion('Where was the founder of Brightwater Foods born?');
    expect(
      roleHolder(
        shape,
        answerUnits(
          [passage(1, 'About Brightwater Foods', 'Brightwater Foods was founded by Mari Tamm in 1997.')],
          shape,
          20,
          600,
        ),
      )?.name,
    ).toBe('Mari Tamm');
  });
});
