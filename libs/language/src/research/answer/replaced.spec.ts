import { plainWords } from '../question/words';
import { replacedWord as replacedIn } from './replaced';

const replacedWord = (question: string, sentence: string) => replacedIn(plainWords(question), sentence);

describe('a word of the question replaced in its sentence', () => {
  it('is found where the words around it stand around another word', () => {
    expect(replacedWord('Who was the last duke of Varden?', 'Osric was the first duke of Varden.')).toBe(true);
    expect(replacedWord('What did the council ban in 1921?', 'The council banned carts in 1920 and 1921.')).toBe(false);
  });

  it('is not a word the sentence holds, a stop word, or a word whose neighbours stand apart', () => {
    // The sentence holds "duke" elsewhere: the same word, said in another place.
    expect(
      replacedWord('Who was the last duke of Varden?', 'The duke of Varden was Osric, the last of his line.'),
    ).toBe(false);
    // "of" for "in": stop words differ, nothing meaning is replaced.
    expect(replacedWord('Who was the duke in Varden?', 'Osric was the duke of Varden.')).toBe(false);
    // Its neighbours are in the sentence, but not around one word.
    expect(replacedWord('Who was the last duke of Varden?', 'Osric was the duke, and the last of Varden.')).toBe(false);
  });
});
