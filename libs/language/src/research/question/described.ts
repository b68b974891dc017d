/** What a question describes instead of naming ("X's flagship infusion pump"), and the name the entity's pages give it. */
import { tokenize } from '@app/text';
import type { AnswerUnit } from './answer-units';
import type { QuestionShape } from './question-shape';

/**
 * What a role is "of" when the question describes it instead of naming it: "the lead designer of
 * Verabrook Medical's flagship infusion pump" -> owner Verabrook Medical, described "flagship
 * infusion pump" (lower-case words after the possessive, up to an adverb or a verb-like word).
 */
export function describedObject(question: string, shape: QuestionShape): { text: string; descriptor: string } | null {
  if (!shape.relation || !shape.entityName) return null;
  const at = question.indexOf(shape.relation.phrase);
  if (at < 0 || !/['’]s?$/.test(shape.relation.phrase)) return null;
  const rest = question.slice(at + shape.relation.phrase.length);
  const descriptor: string[] = [];
  for (const word of rest.trim().split(/\s+/)) {
    if (!/^\p{Ll}[\p{Ll}-]*$/u.test(word) || /ly$/.test(word) || DESCRIPTOR_STOP.has(word) || descriptor.length >= 3)
      break;
    descriptor.push(word);
  }
  if (descriptor.length === 0) return null;
  const possessive = shape.relation.phrase.slice(shape.relation.phrase.lastIndexOf(shape.entityName));
  return { text: `${possessive} ${descriptor.join(' ')}`, descriptor: descriptor.join(' ') };
}

const DESCRIPTOR_STOP = new Set(
  'did does do was were is are has have had in at on for of to from by with before after when where while who which that study studied work worked design designed hold holds born live lives'.split(
    ' ',
  ),
);

/** The name the entity's own pages give what the question describes ("Our flagship infusion pump is the Sentria 4"). */
export function describedName(
  descriptor: string,
  shape: QuestionShape,
  units: AnswerUnit[],
): { name: string; unit: AnswerUnit } | null {
  const wanted = tokenize(descriptor);
  const need = Math.min(2, wanted.length);
  for (const unit of units) {
    if (!unit.about) continue;
    const present = new Set(tokenize(unit.text));
    if (wanted.filter((w) => present.has(w)).length < need) continue;
    for (const m of unit.text.matchAll(/\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}[\p{L}'’-]*|\d+[\p{L}]*))*/gu)) {
      const name = m[0].replace(/['’]s$/, '');
      const terms = tokenize(name);
      // Not the owner itself, not a word opening the sentence ("Our").
      if (terms.length === 0 || terms.some((t) => shape.entity.has(t)) || NOT_NAMES.has(name) || m.index === 0)
        continue;
      return { name, unit };
    }
  }
  return null;
}

export const NOT_NAMES = new Set(['The', 'Our', 'We', 'It', 'Its', 'This', 'That', 'These', 'In', 'On', 'At']);
