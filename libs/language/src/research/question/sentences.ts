/** The passage sentences a short answer is read from, weighed by the question's words in them, on the page they lead to, and on the page they name; and the words' weights. */
import { sentenceSpans, tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { keyOf, subjectOf } from './names';

export interface Sentence {
  source: number;
  text: string;
  rank: number;
  overlap: number;
  title: string;
}

/** Sentences read for candidates at most (compromise costs milliseconds a sentence). */
const SENTENCES_READ = 40;

/** Passage sentences that share the question's words, best first (at most SENTENCES_READ). */
export function sentencesOf(
  passages: ResearchPassage[],
  terms: Set<string>,
  weight: (t: string) => number,
): Sentence[] {
  const out: Sentence[] = [];
  const linked = linkContext(passages, terms, weight);
  const named = namedContext(passages, terms, weight);
  passages.forEach((p, rank) => {
    const link = linked.get(p.source);
    for (const s of sentenceSpans(p.text)) {
      if (s.text.length < 15 || s.text.length > 800) continue;
      const seen = new Set(tokenize(`${s.text}`));
      // The page's title counts a little: "He directed it" is about the page's film.
      const titleTerms = new Set(tokenize(p.title));
      const names = named(p.source, s.text);
      let overlap = 0;
      for (const t of terms)
        if (seen.has(t)) overlap += weight(t);
        else if (titleTerms.has(t)) overlap += 0.5 * weight(t);
        else if (link?.has(t) || names.has(t)) overlap += LINKED * weight(t);
      if (overlap > 0) out.push({ source: p.source, text: s.text, rank, overlap, title: p.title });
    }
  });
  return out.sort((a, b) => b.overlap - a.overlap || a.rank - b.rank).slice(0, SENTENCES_READ);
}

/** What a question's word in the sentence that leads to a page counts, in that page's sentences, of its weight. */
const LINKED = 0.5;

/**
 * For each passage, the question's words of the sentence on another page that names it: "Tobin
 * Arkwell … is known for playing Pell in The Lantern" leads to The Lantern's own page, whose
 * sentences then answer what the question asks of it ("directed by J. Corwin Halvard").
 */
function linkContext(
  passages: ResearchPassage[],
  terms: Set<string>,
  weight: (t: string) => number,
): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  // Each sentence cut at its commas, semicolons and brackets: the part that names a page says what leads to it.
  const pages = passages.map((p) => ({
    p,
    subject: subjectOf(p.title),
    title: tokenize(p.title),
    parts: sentenceSpans(p.text).flatMap((s) =>
      s.text.split(/[,;:()]/).map((part) => ({ key: ` ${keyOf(part)} `, terms: tokenize(part) })),
    ),
  }));
  for (const q of pages) {
    if (q.subject.length < 3) continue;
    let best: Set<string> | undefined;
    let bestWeight = 0;
    for (const p of pages) {
      if (p.p === q.p || p.subject === q.subject) continue;
      for (const part of p.parts) {
        if (!part.key.includes(` ${q.subject} `)) continue;
        // The question's words beside the name ("and Tom in the film The Lantern"), and the page's own title.
        const mine = new Set([...terms].filter((t) => part.terms.includes(t) || p.title.includes(t)));
        const w = [...mine].reduce((a, t) => a + weight(t), 0);
        if (w > bestWeight) [best, bestWeight] = [mine, w];
      }
    }
    if (best) out.set(q.p.source, best);
  }
  return out;
}

/**
 * The other way round: a sentence that names another page's subject borrows the question's words
 * of that page's best sentence. "Varden Song … is a fight song of the University of Varden" names
 * the page whose sentences say what the question says of the university ("main campus in
 * Calloway, Varden"), and so answers "the fight song of the university whose main campus…".
 */
function namedContext(
  passages: ResearchPassage[],
  terms: Set<string>,
  weight: (t: string) => number,
): (source: number, sentence: string) => Set<string> {
  const pages = passages
    .map((p) => {
      let best = new Set<string>();
      let bestWeight = 0;
      for (const s of sentenceSpans(p.text)) {
        const mine = new Set(tokenize(s.text).filter((t) => terms.has(t)));
        const w = [...mine].reduce((a, t) => a + weight(t), 0);
        if (w > bestWeight) [best, bestWeight] = [mine, w];
      }
      return { source: p.source, subject: subjectOf(p.title), best };
    })
    .filter((p) => p.subject.length >= 3 && p.best.size > 0);
  return (source, sentence) => {
    const key = ` ${keyOf(sentence)} `;
    const out = new Set<string>();
    const own = pages.find((p) => p.source === source)?.subject;
    for (const p of pages)
      if (p.source !== source && p.subject !== own && key.includes(` ${p.subject} `))
        for (const t of p.best) out.add(t);
    return out;
  };
}

/** Term weights: rarer among the passages' sentences weighs more (an idf over what was read). */
export function termWeights(passages: ResearchPassage[], terms: string[]): (t: string) => number {
  const df = new Map<string, number>();
  let n = 0;
  for (const p of passages)
    for (const s of sentenceSpans(p.text)) {
      n++;
      for (const t of new Set(tokenize(s.text))) if (terms.includes(t)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  return (t) => Math.log(1 + (n + 1) / ((df.get(t) ?? 0) + 0.5));
}
