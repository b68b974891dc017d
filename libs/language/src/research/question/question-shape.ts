import { stem, tokenize } from '@app/text';
import { SYNONYMS } from '../../schema-fill/extractive.schema-filler';
import type { ValueKind } from '../../schema-fill/value-patterns';
import { type QuestionRelation, relationOf } from './roles';
import lexicon from '../../lexicon/question-words.json';

/**
 * What a research question asks for, read the way a reference librarian would: the kind of value
 * that answers it (a year, a date, money, a number, a person, a place, an organisation, yes/no, or
 * free text), the entity it is about (its capitalised name), the words that say which fact is
 * wanted (its predicate, with the words pages use for them) and, for a question about someone or
 * something linked to the entity ("the chief executive of X"), that link. Deterministic, English-first.
 */
export interface QuestionShape {
  kind: ValueKind;
  /** Stems of the entity's name ("Brightwater Foods" -> brightwater, food). */
  entity: Set<string>;
  /** The entity's name as written in the question, or null. */
  entityName: string | null;
  /** Stemmed predicate words with weights: the question's own words 2, their synonyms 1.5. */
  predicate: Map<string, number>;
  /** "the chief executive of X": the role and the phrase to replace once the role-holder is known. */
  relation: QuestionRelation | null;
}

/** Words that say what kind of answer is wanted, or only phrase the question: never a predicate. */
export const QUESTION_WORDS = new Set(tokenize(lexicon.question_words.words.join(' ')));

/** Words of the research vocabulary beyond the schema filler's (keys are stems, as `tokenize` gives them). */
const MORE_SYNONYMS: Record<string, string[]> = lexicon.synonyms.words;

/** "Which non-profit organisation …", "in which city": the noun names the kind asked outright. */
const ORG_ASKED = new RegExp(
  `\\b(?:which|what|whose) (?:[\\w-]+ )?(?:${lexicon.organisation_asked.words.join('|')})\\b`,
);
const PLACE_ASKED = new RegExp(`\\b(?:which|what|in which|in what) (?:${lexicon.place_asked.words.join('|')})\\b`);

const synonymsOf = (term: string): string[] => [...(SYNONYMS[term] ?? []), ...(MORE_SYNONYMS[term] ?? [])];

export function questionKind(question: string): ValueKind {
  const q = question.toLowerCase().replace(/\s+/g, ' ').trim();
  if (/^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b/.test(q)) return 'boolean';
  if (/\b(?:what|which) (?:year|decade)\b|\bin what year\b|\byear (?:was|did|were)\b/.test(q)) return 'year';
  if (/\b(?:what|which) (?:date|day)\b|\bon what date\b/.test(q)) return 'date';
  if (/\bwhen\b/.test(q))
    return /\b(?:found|founded|established|born|incorporated|set up|formed|created|started)\b/.test(q)
      ? 'year'
      : 'date';
  // "Which non-profit organisation …" names the kind outright, whatever other words follow.
  if (ORG_ASKED.test(q)) return 'organisation';
  if (/\bwhat (?:percentage|percent|share|proportion)\b|\bby how much\b.*\b(?:grow|grew|rise|rose|fall|fell)\b/.test(q))
    return 'percent';
  if (
    /\bhow much\b/.test(q) ||
    (/^(?:what|which)\b/.test(q) &&
      /(?<!-)\b(?:revenue|revenues|turnover|sales|price|cost|costs|funding|budget|valuation|investment|profit|income|loss|fee|fees|salary|earnings)\b/.test(
        q,
      ))
  )
    return 'money';
  if (
    /\bhow many\b|\bnumber of\b|\bhow (?:large|big|tall|long|old|high|far)\b|\bwhat (?:size|capacity|headcount)\b/.test(
      q,
    )
  )
    return 'number';
  if (/\bwhere\b.*\b(?:study|studied|educated|train|trained|graduate|graduated|work|worked|employed|intern)\b/.test(q))
    return 'organisation';
  if (/\bwho (?:acquired|bought|owns|owned|funded|supplies|supplied|manufactures|makes|published|invested)\b/.test(q))
    return 'organisation';
  if (/\bwhere\b/.test(q) || PLACE_ASKED.test(q)) return 'place';
  if (
    /\bwho\b|\bwhom\b|\bwhose\b|\bwhich person\b|\bname of (?:the|its|their) (?:ceo|founder|chief|director|head|owner|president|chair)/.test(
      q,
    )
  )
    return 'person';
  return 'text';
}

export function analyseQuestion(question: string): QuestionShape {
  const kind = questionKind(question);
  const relation = relationOf(question);
  const names = namesIn(relation ? question.replace(relation.phrase, ' ') : question);
  const entityName = names.entity ?? (relation ? namesIn(relation.phrase).entity : null);
  const entity = new Set(entityName ? tokenize(entityName) : []);
  const roleTerms = new Set(relation ? tokenize(relation.role) : []);
  const predicate = new Map<string, number>();
  for (const term of tokenize(question)) {
    if (entity.has(term) || QUESTION_WORDS.has(term) || /^\d+$/.test(term)) continue;
    // The role names the link, not the fact asked about it: it matters less than the predicate.
    predicate.set(term, Math.max(predicate.get(term) ?? 0, roleTerms.has(term) ? 1 : 2));
  }
  for (const [term, weight] of [...predicate]) {
    for (const synonym of synonymsOf(term))
      for (const s of tokenize(synonym))
        if (!predicate.has(s) && !entity.has(s)) predicate.set(s, Math.min(weight, 1.5));
  }
  return { kind, entity, entityName, predicate, relation };
}

/**
 * The named entity: a run of capitalised words after the question's first word. A run after "at",
 * "of", "from", "by", "for" or "with" names who the question is about ("a four-week Intensive
 * Spanish course at Corvallen Idiomas"); otherwise the first run does ("did Ledgerlark raise in its
 * Series B round"). The other runs' words stay predicate words: they narrow the fact asked for.
 */
export function namesIn(text: string): { entity: string | null } {
  const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}&'’.-]*/gu)];
  const runs: Array<{ name: string; led: boolean }> = [];
  let run: string[] = [];
  let led = false;
  const flush = () => {
    const name = run
      .join(' ')
      .replace(/[.,;:!?]+$/, '')
      .replace(/['’]s?$/, '')
      .replace(/\s+(?:of|and|&|de|for)$/, '');
    if (name) runs.push({ name, led });
    run = [];
  };
  words.forEach((m, i) => {
    const word = m[0];
    const capital = /^\p{Lu}/u.test(word) && i > 0 && !QUESTION_WORDS.has(stem(word.toLowerCase()));
    const joiner = run.length > 0 && /^(?:of|and|&|de|for)$/.test(word);
    if (capital || joiner) {
      if (run.length === 0) led = /^(?:at|of|from|by|for|with)$/i.test(words[i - 1]?.[0] ?? '');
      run.push(word);
    } else flush();
  });
  flush();
  const entity = runs.find((r) => r.led) ?? runs[0];
  return { entity: entity?.name ?? null };
}
