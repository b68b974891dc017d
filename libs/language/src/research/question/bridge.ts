/**
 * Bridge questions: the question names the thing it asks about only by what another page says of
 * it ("Tobin Arkwell plays Pell in a film directed by which director?": the film is named on the
 * actor's page; its director on the film's own). The sentence that says most of what the question
 * says names the bridge; its own page, read next, answers.
 */
import { sentenceSpans, tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { analyse, type QuestionAnalysis } from './analysis';
import { datePiece } from './candidates/dates';
import { capitalisedRuns, keyOf, quotedTitles, subjectOf } from './names';
import { nlp } from '../../lazy-parsers';

/** Sentences read for bridge names: the best few by the question's words. */
const LINKING_SENTENCES = 3;
/** A linking sentence shares at least this many of the question's words. */
const MIN_SHARED = 2;
/** Sentences read, as the short path reads them (shorter are headings, longer run-on boilerplate). */
const MIN_SENTENCE = 15;
const MAX_SENTENCE = 800;
/** A name followed is a search of its own: at most this many words (a page's run of capitals is no name). */
const MAX_NAME_WORDS = 6;

export interface BridgeName {
  name: string;
  /** The passage and sentence that named it. */
  source: number;
  quote: string;
}

/**
 * Names the question's best-matching sentences give (on pages that name what the question names;
 * the sentences with most of the words of the clause that asks first) that no page read is about
 * and the question does not write: people, places and organisations compromise reads, names of two
 * words or more, titles a page quotes; not a date or a nationality. At most `max`. None for
 * which-of-two and yes/no (both names are the question's own).
 */
export function bridgeNames(
  analysed: string | QuestionAnalysis,
  passages: ResearchPassage[],
  max: number,
): BridgeName[] {
  const a = typeof analysed === 'string' ? analyse(analysed) : analysed;
  const { text: question, short: q } = a;
  if (!q || q.kind === 'choice' || q.kind === 'yesno' || max < 1) return [];
  const terms = new Set(q.terms);
  const asked = ` ${keyOf(question)} `;
  const read = new Set(passages.map((p) => subjectOf(p.title)));
  // The words of the clause that asks ("…, is written and illustrated by someone born in what
  // year?") say what leads to the bridge; the rest describe where it starts.
  const clause = new Set(tokenize(askingClause(question, a.asking!)).filter((t) => terms.has(t)));
  // A bridge leads on from what the question names: only a page that names it too links ("How
  // many people does Verabrook Medical employ?" follows no name on another company's page).
  const names = capitalisedRuns(question)
    .filter((n) => !nlp(n).has('#Demonym'))
    .map(keyOf)
    .filter(
      (k) => k.length >= 3 && tokenize(k).length > 0 && !/^(?:who|whom|whose|what|which|where|when|how)\b/.test(k),
    );
  // The words of the question's own names only say which page it starts from ("Korbin Vale … was
  // an American football running back in the National Football League"): what links on is said by
  // its other words ("He played college football at Varden State").
  const nameTerms = new Set(names.flatMap((n) => tokenize(n)));
  const linked = passages.filter((p) => {
    const text = ` ${keyOf(`${p.title} ${p.text}`)} `;
    return names.some((n) => text.includes(` ${n} `));
  });
  const sentences = linked
    .flatMap((p, rank) =>
      sentenceSpans(p.text)
        .filter((s) => s.text.length >= MIN_SENTENCE && s.text.length <= MAX_SENTENCE)
        .map((s) => {
          const own = new Set(tokenize(s.text).filter((t) => terms.has(t)));
          const linking = [...own].filter((t) => !nameTerms.has(t));
          return {
            source: p.source,
            text: s.text,
            rank,
            about: names.includes(subjectOf(p.title)),
            shared: own.size,
            linking: linking.length,
            asking: linking.filter((t) => clause.has(t)).length,
          };
        }),
    )
    .filter((s) => s.shared >= MIN_SHARED)
    // The own page of a thing the question names first ("Marsh Hollow (film)" for "the director of
    // the romantic comedy "Marsh Hollow""), then the linking words.
    .sort(
      (a, b) =>
        Number(b.about) - Number(a.about) ||
        b.asking - a.asking ||
        b.linking - a.linking ||
        b.shared - a.shared ||
        a.rank - b.rank,
    )
    .slice(0, LINKING_SENTENCES);
  const out: BridgeName[] = [];
  for (const s of sentences) {
    const doc = nlp(s.text);
    const topics = new Set((doc.topics().out('array') as string[]).map(keyOf));
    const quoted = quotedTitles(s.text);
    for (const name of [...quoted, ...capitalisedRuns(s.text)]) {
      const words = name.split(/\s+/).length;
      if (words > MAX_NAME_WORDS) continue;
      const key = keyOf(name);
      if (!key || read.has(key) || asked.includes(` ${key} `) || out.some((o) => keyOf(o.name) === key)) continue;
      if (tokenize(name).every((t) => terms.has(t))) continue;
      if (!quoted.includes(name) && words < 2 && !topics.has(key)) continue;
      if (datePiece(name) || nlp(name).has('#Demonym')) continue;
      out.push({ name, source: s.source, quote: s.text });
      if (out.length >= max) return out;
    }
  }
  return out;
}

/** The comma-delimited part of a question that holds the word it asks with ("what year"), `asking` where it asks (askingPart). */
function askingClause(question: string, asking: string): string {
  const at = question.length - asking.length;
  const start = question.lastIndexOf(',', at) + 1;
  const end = question.indexOf(',', at);
  return question.slice(start, end < 0 ? undefined : end);
}
