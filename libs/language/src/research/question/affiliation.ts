/** A person's organisation, when the question names it by its relation to them ("the company where X works"). */
import { stem, tokenize } from '@app/text';
import { valuesOfKind } from '../../schema-fill/value-patterns';
import { type AnswerUnit, answerUnits } from './answer-units';
import { NOT_NAMES } from './described';
import { caseBlind } from './roles';

const PLACE_NOUNS =
  'company|firm|organisation|organization|employer|business|university|institute|school|college|lab|laboratory|startup|hospital|charity|studio|agency';
const NAME = "\\p{Lu}[\\p{L}'’-]+(?:\\s+\\p{Lu}[\\p{L}'’-]+){1,3}";
/** "the company where Henrik Salvesen works", "the university that Ana Lopes attended", "Henrik Salvesen's employer". */
const AFFILIATION = [
  new RegExp(
    `\\b${caseBlind('the')}\\s+(?:(?:[\\p{Ll}-]+)\\s+)?(?:${PLACE_NOUNS})\\s+(?:where|that|which|for which|at which|in which)\\s+(${NAME})\\s+(?:now\\s+|currently\\s+|later\\s+|first\\s+)?(?:works|worked|is employed|was employed|teaches|taught|studied|studies|trained|attended|joined|founded|co-founded|started|runs|ran|leads|led|heads|headed|chairs)(?:\\s+(?:for|at|in|as))?`,
    'u',
  ),
  new RegExp(
    `\\b${caseBlind('the')}\\s+(?:(?:[\\p{Ll}-]+)\\s+)?(?:${PLACE_NOUNS})\\s+(?:that|which|who)\\s+(?:now\\s+|currently\\s+)?(?:employs|employed|hired|hires|trained|funds|funded)\\s+(${NAME})`,
    'u',
  ),
  new RegExp(
    `(${NAME})['’]s?\\s+(?:current\\s+|former\\s+|first\\s+)?(?:employer|company|firm|university|alma mater|school|college|startup|business)\\b`,
    'u',
  ),
];
const AFFILIATION_WORDS = new Set(
  tokenize(
    'work worked works joined join employ employed teach teaches taught study studied trained attended found founded co-founded start started run runs lead leads led head heads chair chairs at',
  ),
);

/** A question that names a person's organisation by its relation to them, and that person. */
export function affiliation(question: string): { phrase: string; person: string } | null {
  for (const pattern of AFFILIATION) {
    const m = pattern.exec(question);
    if (m) return { phrase: m[0].trim(), person: m[1]! };
  }
  return null;
}

/** The organisation a person's pages tie them to ("I joined Tindral Systems in 2012" -> Tindral Systems). */
export function affiliationName(
  person: string,
  passages: Array<{ source: number; title: string; text: string; url?: string }>,
): { name: string; unit: AnswerUnit } | null {
  const personTerms = new Set(tokenize(person));
  const units = answerUnits(passages, { entity: personTerms }, 20, 600);
  let best: { name: string; unit: AnswerUnit; score: number } | null = null;
  units.forEach((unit, order) => {
    if (!unit.about) return;
    const words = [...unit.text.matchAll(/[\p{L}\p{N}]+/gu)];
    const anchors = words.filter((m) => AFFILIATION_WORDS.has(stem(m[0].toLowerCase()))).map((m) => m.index!);
    if (anchors.length === 0) return;
    for (const v of valuesOfKind('organisation', unit.text, personTerms)) {
      if (tokenize(v.text).some((t) => personTerms.has(t)) || NOT_NAMES.has(v.text)) continue;
      const distance = Math.min(...anchors.map((a) => Math.abs(a - v.index)));
      const score = -distance - order / 10_000;
      if (!best || score > best.score) best = { name: v.text, unit, score };
    }
  });
  return best ? { name: (best as { name: string }).name, unit: (best as { unit: AnswerUnit }).unit } : null;
}
