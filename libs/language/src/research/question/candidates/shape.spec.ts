import { sentenceShape } from './shape';
import { tagged } from './tagged';
import { wordsOf } from './words';

const weightOne = () => 1;

describe("a candidate's own words and the words beside it", () => {
  const sentence = 'The size of the input is measured in bytes, and the answer is given in the 12th century.';
  const terms = new Set(['size', 'input', 'measur', 'answer']);
  const shape = sentenceShape(sentence, wordsOf(sentence), terms, weightOne, terms.size, 'century');

  it('an answer phrase ends in a noun, a number or a name, and starts with no conjunction or preposition', () => {
    expect(shape('bytes').phrase_shape).toBe(1);
    expect(shape('12th century').phrase_shape).toBe(1);
    expect(shape('size of the').phrase_shape).toBe(0);
    const solved = 'However, the problem was solved by Mara Ellison.';
    const other = sentenceShape(solved, wordsOf(solved), terms, weightOne, 4, undefined);
    expect(other('However').phrase_shape).toBe(0);
    expect(other('Mara Ellison').phrase_shape).toBe(1);
    expect(other('Mara Ellison').capitalised).toBe(1);
    expect(other('However').capitalised).toBe(0);
  });

  it('a candidate the sentence does not write is tagged alone', () => {
    expect(shape('rows of').phrase_shape).toBe(0);
    expect(shape('upper bounds').phrase_shape).toBe(1);
  });

  it('holds the noun asked for, stemmed as the question reads it', () => {
    expect(shape('12th century').asked_head).toBe(1);
    expect(sentenceShape(sentence, wordsOf(sentence), terms, weightOne, 4, 'byte')('bytes').asked_head).toBe(1);
    expect(sentenceShape(sentence, wordsOf(sentence), terms, weightOne, 4, 'style')('bytes').asked_head).toBe(0);
    expect(sentenceShape(sentence, wordsOf(sentence), terms, weightOne, 4, undefined)('bytes').asked_head).toBe(0);
  });

  it("counts the question's words beside it and in its clause, by weight", () => {
    // "measured in bytes, and the answer": "measured" stands two words before, "answer" three after;
    // its clause ends at the comma.
    const bytes = shape('bytes');
    expect(bytes.left_terms).toBeCloseTo(1 / 4, 10);
    expect(bytes.right_terms).toBeCloseTo(1 / 4, 10);
    expect(shape('12th century').right_terms).toBe(0);
    expect(bytes.same_clause).toBeCloseTo(3 / 4, 10);
    // "the answer is given in the 12th century": only "answer" shares its clause.
    expect(shape('12th century').same_clause).toBeCloseTo(1 / 4, 10);
    expect(shape('12th century').value_length).toBeCloseTo(2 / 6, 10);
  });

  it('tags each sentence once, for every reader of it', () => {
    expect(tagged(sentence)).toBe(tagged(sentence));
  });
});
