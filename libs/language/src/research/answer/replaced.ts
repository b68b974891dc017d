/**
 * A word of the question replaced in the answer's sentence: the question's words on either side
 * of it stand in the sentence around another word ("the last Varden duke of" asked, "the first
 * Varden duke of" stated). The sentence then states something beside what is asked: the mark of
 * a question written to have no answer in its text, and of a value read from the wrong sentence.
 */
import { tokenize } from '@app/text';
import { plainWords } from '../question/words';

/** A word that carries meaning (tokenize keeps it: no stop word). */
const content = (word: string): boolean => tokenize(word).length > 0;

/** Whether a content word of the question (`q`, its plain words) the sentence lacks has the question's neighbours on both sides of another word in `sentence`. */
export function replacedWord(q: readonly string[], sentence: string): boolean {
  const s = plainWords(sentence);
  const held = new Set(s);
  for (let i = 1; i + 1 < q.length; i++) {
    const word = q[i]!;
    if (held.has(word) || !content(word)) continue;
    const [left, right] = [q[i - 1], q[i + 1]];
    // The sentence lacks `word`, so whatever stands between its neighbours is another word.
    for (let j = 1; j + 1 < s.length; j++) if (s[j - 1] === left && s[j + 1] === right) return true;
  }
  return false;
}
