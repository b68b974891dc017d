/**
 * The question's words that have an opposite (WordNet's antonyms of adjectives, verbs and adverbs,
 * read for each word of the question but names, numbers and function words, as their roots): "When did the duchy lose its port?" holds "lose", whose opposites are
 * keep and win. A sentence that states an opposite and not the word itself answers another
 * question (the answer model's `antonym_clash`).
 */
import { nlp } from '../../lazy-parsers';
import { tokenize } from '@app/text';
import { antonyms } from '../../lexicon/antonyms';

export interface Opposed {
  /** The question's word, stemmed as the question's terms are. */
  stem: string;
  /** Its opposites, stemmed (one word each). */
  opposites: string[];
}

const SKIPPED = new Set([
  'ProperNoun',
  'Value',
  'Pronoun',
  'Determiner',
  'Preposition',
  'Conjunction',
  'Auxiliary',
  'QuestionWord',
]);
const LIGHT = new Set(['be', 'have', 'do', 'did', 'does', 'is', 'was', 'were', 'are', 'get', 'make']);

/** The words of `line` with an opposite in WordNet, each with its opposites (empty without WordNet). */
export function oppositesOf(line: string): Opposed[] {
  const dictionary = antonyms();
  if (!dictionary || !line) return [];
  const doc = nlp(line);
  doc.compute('root');
  const terms = (doc.json() as Array<{ terms: Array<{ normal?: string; root?: string; tags?: string[] }> }>).flatMap(
    (s) => s.terms,
  );
  const out: Opposed[] = [];
  for (const t of terms) {
    const tags = t.tags ?? [];
    // Any word but a name, a number or a function word: compromise may tag a verb of a question as a noun ("did it increase its staff").
    if (tags.some((g) => SKIPPED.has(g))) continue;
    const word = t.normal ?? '';
    const root = t.root ?? word;
    if (!word || LIGHT.has(root)) continue;
    const stem = tokenize(word)[0];
    if (!stem) continue;
    const opposites = [...new Set([...dictionary.of(root), ...(root !== word ? dictionary.of(word) : [])])]
      .map((o) => tokenize(o))
      .filter((o) => o.length === 1 && o[0] !== stem)
      .map((o) => o[0]!);
    if (opposites.length > 0) out.push({ stem, opposites });
  }
  return out;
}
