/** Candidates of the kind a question asks for in a sentence, as written: names, dates and years, numbers, things. */
import type { ShortKind } from '../short-question';
import { askedNoun } from '../short-question';
import { type CandidateCues, candidateCues } from './cues';
import type { Candidate } from './fit';
import { datesIn, yearsIn } from './dates';
import { namesIn } from './named';
import { numbersIn } from './numbers';
import { thingsIn } from './things';

export type { Candidate } from './fit';

/** Candidates of `kind` in a sentence, as written. */
export function candidatesIn(
  kind: ShortKind,
  text: string,
  questionTerms: Set<string>,
  // The question's cues (see analyse), or the question itself, its cues read here.
  question: string | CandidateCues,
  // The noun the question asks for, as written (ShortQuestion.nounWord; null: none); read from the question when not given.
  askedWord?: string | null,
): Candidate[] {
  const cues =
    typeof question === 'string'
      ? candidateCues(
          question,
          askedWord !== undefined
            ? askedWord
            : kind === 'place' || kind === 'thing'
              ? (askedNoun(question)?.word ?? null)
              : null,
        )
      : question;
  // A name in another script than the question's ("Михаил Горбачёв" for an English question) is not how the asker writes it.
  const latin = cues.latin;
  const script = (c: string) => !latin || /\p{Script=Latin}/u.test(c);
  const plain = (values: string[]) => values.map((text) => ({ text, fit: 1 }));
  if (kind === 'year') return plain(yearsIn(text));
  if (kind === 'date') return plain(datesIn(text));
  if (kind === 'number') return numbersIn(text, cues);
  if (kind === 'thing') return thingsIn(text, questionTerms, cues, script);
  return namesIn(kind, text, cues, script);
}
