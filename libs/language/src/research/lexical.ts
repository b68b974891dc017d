/** The lexical finding: passage sentences scored against the question (BM25 blended with term coverage), the best and those agreeing with it. */
import type { Finding } from '@app/domain';
import { addCounts, bm25, sentenceSpans, tokenize } from '@app/text';
import { oneLine, type ResearchPassage } from '@app/research';
import type { QuestionAnalysis } from './question/analysis';
import { MAX_ANSWER_SENTENCES, MAX_SENTENCE, MIN_SENTENCE } from './quotes';

/** A sentence within this share of the best score agrees with it (and may join the answer). */
const AGREE_FRACTION = 0.6;

interface Candidate {
  source: number;
  text: string;
  score: number;
  coverage: number;
  order: number;
}

/** The closest sentences to a question (as analysed): the lexical finding. */
export function gradeLexical(
  question: Pick<QuestionAnalysis, 'text' | 'words'>,
  passages: ResearchPassage[],
): Finding | null {
  const subquery = question.text;
  const terms = [...new Set(question.words)];
  if (terms.length === 0) return null;
  const units = passages.flatMap((p) =>
    sentenceSpans(p.text)
      .filter((s) => s.text.length >= MIN_SENTENCE && s.text.length <= MAX_SENTENCE)
      .map((s) => ({ source: p.source, text: s.text })),
  );
  const tokens = units.map((u) => tokenize(u.text));
  const scored = bm25(
    terms,
    tokens.map((t) => addCounts(new Map(), t)),
    tokens.map((t) => t.length),
  );
  const maxRaw = scored.reduce((a, s) => Math.max(a, s.raw), 0);
  const need = Math.min(2, terms.length);
  const ranked: Candidate[] = units
    .map((u, i) => ({
      ...u,
      // Rounded so float noise never reorders equal sentences across platforms.
      score: maxRaw > 0 ? Math.round((0.5 * (scored[i]!.raw / maxRaw) + 0.5 * scored[i]!.coverage) * 1e6) / 1e6 : 0,
      coverage: scored[i]!.coverage,
      matched: scored[i]!.matched,
      order: i,
    }))
    .filter((c) => c.matched >= need)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const best = ranked[0];
  if (!best) return null;
  const agreeing = ranked.filter((c) => c.score >= AGREE_FRACTION * best.score);
  const picked = pickAnswer(agreeing);
  const agreeingSources = new Set(agreeing.map((c) => c.source)).size;
  const strong = best.coverage >= 0.6;
  const confidence = strong && agreeingSources >= 2 ? 'high' : strong || agreeingSources >= 2 ? 'medium' : 'low';
  return {
    subquery,
    answer: picked.map((c) => c.text).join(' '),
    citations: [...new Set(picked.map((c) => c.source))],
    confidence,
    evidence: picked.map((c) => ({ source: c.source, quote: c.text })),
  };
}

/** Best first; then sentences from sources not yet quoted; then any; never the same text twice. */
function pickAnswer(agreeing: Candidate[]): Candidate[] {
  const picked: Candidate[] = [];
  const texts = new Set<string>();
  const take = (c: Candidate) => {
    const key = oneLine(c.text).toLowerCase();
    if (picked.length >= MAX_ANSWER_SENTENCES || texts.has(key)) return;
    texts.add(key);
    picked.push(c);
  };
  take(agreeing[0]!);
  for (const c of agreeing) if (!picked.some((p) => p.source === c.source)) take(c);
  for (const c of agreeing) take(c);
  return picked.sort((a, b) => b.score - a.score || a.order - b.order);
}
