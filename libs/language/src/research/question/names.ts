/**
 * Names as pages and questions write them: keys names are compared by, a page's title as its
 * subject's name, runs of capitalised words, quoted titles, numbered names ("Harvest Cup 50") and
 * initials, and the pages a question names.
 */
import { tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import type { ShortQuestion } from './short-question';
import { nlp } from '../../lazy-parsers';

export const keyOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/** A page's title as the name of its subject: "Quillmark (magazine)" -> quillmark, "Varenna, Norland" -> varenna. */
export const subjectOf = (title: string) => keyOf(titleName(title));
/** A page's title as its subject's name, as written: "Quillmark (magazine)" -> Quillmark, "Varenna, Norland" -> Varenna. */
export const titleName = (title: string) =>
  title
    .replace(/\s*\([^)]*\)\s*$/, '')
    .replace(/,.*$/, '')
    .trim();

export const trimEnds = (s: string) => s.replace(/^[\s"'“”‘’(]+|[\s"'“”‘’),.;:!?]+$/g, '');

/**
 * Runs of capitalised words as written ("Tobin Arkwell", "J. Corwin Halvard", "Bank of Varden"):
 * names compromise does not tag in their sentence; a run's leading stop words ("The", "In") are
 * not part of the name.
 */
const CAPITALISED_WORD = String.raw`(?:(?:\p{Lu}\.)+|\p{Lu}[\p{L}\p{M}'’.-]*)`;
export const CAPITALISED_RUN = new RegExp(
  `(?<![\\p{L}\\p{N}])${CAPITALISED_WORD}(?:\\s+(?:(?:of|the|de|del|da|van|von|der|le|la|&)\\s+)?${CAPITALISED_WORD})*`,
  'gu',
);

/** Titles a text quotes whole, capitalised, of six words at most: 'the song "Ballad for the Evening"'. */
export const quotedTitles = (text: string): string[] =>
  [...text.matchAll(/["“]([^"“”]{2,80})["”]/gu)]
    .map((m) => m[1]!.trim())
    .filter((q) => q.split(/\s+/).length <= 6 && /^\p{Lu}/u.test(q));

const joining = new Map<string, boolean>();
/** Whether compromise reads a word alone as a preposition or a conjunction ("Despite", "Although", "After"). */
function joiningWord(word: string): boolean {
  let known = joining.get(word);
  if (known === undefined) {
    if (joining.size >= 10_000) joining.clear();
    const tags = (nlp(word).json() as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms[0]?.tags ?? [];
    joining.set(word, (known = tags.includes('Preposition') || tags.includes('Conjunction')));
  }
  return known;
}

export function capitalisedRuns(text: string): string[] {
  const runs = text.match(CAPITALISED_RUN) ?? [];
  return runs
    .map((run) => {
      const words = run.split(/\s+/);
      let drop = 0;
      while (drop < words.length - 1 && tokenize(words[drop]!).length === 0 && !/^(?:\p{Lu}\.)+$/u.test(words[drop]!))
        drop++;
      // A sentence's opening preposition or conjunction is no part of the name after it ("Despite Varden").
      if (drop < words.length - 1 && joiningWord(words[drop]!)) drop++;
      return words
        .slice(drop)
        .join(' ')
        .replace(/['’]s$/u, '')
        .replace(/[.'’-]+$/u, (end) => (/^\p{Lu}\.$/u.test(words.at(-1)!) ? end : ''));
    })
    .filter((name) => tokenize(name).length > 0);
}

/** A name and the numeral that makes it one of a series: "Harvest Cup 50", "Harvest Cup XLIX", "Apollo 11". */
const NUMBERED_NAME = /((?:\p{Lu}[\p{L}'’-]*\s+){1,4})((?:[IVXLC]+|\d+)(?:st|nd|rd|th)?)\b/gu;

/** The series' name without what opens its sentence ("The", "Which"). */
const seriesOf = (words: string) => keyOf(words).replace(/^(?:(?:the|a|an|which|what|in|at|on|of|for)\s+)+/, '');

/** The numbered names a question writes: each series' name and the numeral it asks of ("harvest cup" -> "50"). */
export function numberedNames(question: string): Map<string, string> {
  const asked = new Map<string, string>();
  for (const m of question.matchAll(NUMBERED_NAME))
    if (seriesOf(m[1]!)) asked.set(seriesOf(m[1]!), m[2]!.toLowerCase());
  return asked;
}

/**
 * Whether a sentence speaks of another one of a series the question names one of: the question
 * asks of "Harvest Cup 50", the sentence of "Harvest Cup XL" (and not of 50). Its names answer
 * another question.
 */
export function instanceConflict(question: string | ReadonlyMap<string, string>): (sentence: string) => boolean {
  const asked = typeof question === 'string' ? numberedNames(question) : question;
  if (asked.size === 0) return () => false;
  return (sentence) => {
    let other = false;
    for (const m of sentence.matchAll(NUMBERED_NAME)) {
      const number = asked.get(seriesOf(m[1]!));
      if (number === undefined) continue;
      if (m[2]!.toLowerCase() === number) return false;
      other = true;
    }
    return other;
  };
}

/** The initials of the names of two capitalised words or more a text writes: "NFL" of "the National Football League". */
export function initialsOf(text: string): Set<string> {
  return new Set(
    capitalisedRuns(text)
      .map((run) => run.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w)))
      .filter((words) => words.length >= 2)
      .map((words) => words.map((w) => w[0]).join('')),
  );
}

/** The pages a question names by their titles ("Are both Perro Varenno and the Norland Shepherd dog breeds?"). */
export function namedPages(q: ShortQuestion, passages: ResearchPassage[]): ResearchPassage[] {
  const text = keyOf(q.text);
  const named = passages
    .map((p) => ({ p, name: keyOf(p.title.replace(/\s*\([^)]*\)$/, '')) }))
    .filter((n) => n.name.length >= 3 && ` ${text} `.includes(` ${n.name} `))
    .sort((a, b) => b.name.length - a.name.length || a.p.source - b.p.source);
  const out: Array<{ p: ResearchPassage; name: string }> = [];
  // The longest names first; a name inside one already taken ("Pizza" in "Uncle Rob's Pizza") is not another page.
  for (const n of named) if (!out.some((o) => o.name.includes(n.name))) out.push(n);
  return out.map((o) => o.p);
}
