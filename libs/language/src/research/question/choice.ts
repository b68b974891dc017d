/** Which of two named options: settled by the dates or numbers each one's sentences state, else by the question's words around each. */
import { nlp } from '../../lazy-parsers';
import { sentenceSpans, tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { isYear } from './candidates/dates';
import { keyOf } from './names';
import type { Sentence } from './sentences';
import type { ShortAnswer, ShortQuestion } from './short-question';
import { DATE_COMPARE, LESS, MORE } from './words';

/** Sentences about an option: those naming it, and those of a page titled after it. */
function about(option: string, passages: ResearchPassage[]): Sentence[] {
  const key = keyOf(option);
  const out: Sentence[] = [];
  passages.forEach((p, rank) => {
    const titled = keyOf(p.title.replace(/\s*\([^)]*\)$/, '')) === key;
    for (const s of sentenceSpans(p.text))
      if (titled || keyOf(s.text).includes(key))
        out.push({ source: p.source, text: s.text, rank, overlap: titled ? 1 : 0.5, title: p.title });
  });
  return out;
}

/** Which of two: settled by the dates or numbers each option's sentences state, else by the question's words around each. */
export function choose(q: ShortQuestion, passages: ResearchPassage[]): ShortAnswer | null {
  const [a, b] = q.options!;
  const question = q.terms;
  // An option's own description (", the 1970 Copper Lanterns documentary") only says which one is
  // meant: its words would find that option's page, not settle the question.
  const optionTerms = new Set([
    ...tokenize(a),
    ...tokenize(b),
    ...[a, b].flatMap((o) => tokenize(appositiveOf(q.text, o))),
  ]);
  const rest = question.filter((t) => !optionTerms.has(t));
  const sa = about(a, passages);
  const sb = about(b, passages);
  if (sa.length === 0 && sb.length === 0) return null;
  type Read = { value: number; s: Sentence } | null;
  const decide = (
    va: Read,
    vb: Read,
    larger: boolean,
    confidence: ShortAnswer['confidence'] = 'medium',
  ): ShortAnswer | null => {
    if (!va || !vb || va.value === vb.value) return null;
    const aWins = larger ? va.value > vb.value : va.value < vb.value;
    const win = aWins ? va : vb;
    return {
      value: aWins ? a : b,
      confidence,
      source: win.s.source,
      quote: win.s.text,
      agreeing: [{ source: (aWins ? vb : va).s.source, quote: (aWins ? vb : va).s.text }],
    };
  };
  const compare = (
    pick: (s: Sentence[], option: string) => Read,
    larger: boolean,
    confidence?: ShortAnswer['confidence'],
  ) => decide(pick(sa, a), pick(sb, b), larger, confidence);
  const wantsMore = MORE.test(q.text);
  const wantsLess = LESS.test(q.text);
  if (DATE_COMPARE.test(q.text) && (wantsMore || wantsLess)) {
    const year = (ss: Sentence[]) => {
      for (const s of [...ss].sort((x, y) => y.overlap - x.overlap || x.rank - y.rank)) {
        const m = /\b(1[0-9]\d\d|20\d\d)\b/.exec(s.text);
        if (m) return { value: Number(m[1]), s };
      }
      return null;
    };
    // Each option's own page giving its year: the comparison is as sure as the pages.
    const titled = (ss: Sentence[]) => ss.some((x) => x.overlap === 1);
    const settled = compare(
      year,
      wantsMore && !/\b(?:older|oldest|first|earl)/i.test(q.text),
      titled(sa) && titled(sb) ? 'high' : 'medium',
    );
    if (settled) return settled;
  } else if (wantsMore || wantsLess) {
    // "more floors": the noun after the comparative is what is counted; else any number about the option.
    const unit = tokenize(/\b(?:more|fewer|less)\s+([\p{L}]+)/iu.exec(q.text)?.[1] ?? '')[0];
    // Each option's own count: the first number its sentences (its own page first) write before
    // the counted noun ("68 floors", "a seventy seven story building": compromise reads the words),
    // else the first number its own page states; a number inside its name ("15 Brelton Plaza") is no count.
    const counted = (ss: Sentence[], option: string) => {
      const ordered = [...ss].sort((x, y) => y.overlap - x.overlap || x.rank - y.rank);
      let any: { value: number; s: Sentence; unit?: boolean } | null = null;
      for (const s of ordered) {
        const text = s.text.split(option).join(' ');
        for (const n of nlp(text).numbers().json() as Array<{ text: string; number?: { num?: number } }>) {
          const value = n.number?.num;
          if (value === undefined || !Number.isFinite(value) || isYear(n.text.trim())) continue;
          const at = text.indexOf(n.text);
          const after = tokenize(
            text
              .slice(at + n.text.length)
              .split(/\s+/)
              .slice(0, 3)
              .join(' '),
          );
          if (unit && after.includes(unit)) return { value, s, unit: true };
          if (!any && s.overlap === 1) any = { value, s };
        }
      }
      return any;
    };
    // Each option's own page counting the noun asked ("68 floors"): as sure as the pages.
    const ca = counted(sa, a);
    const cb = counted(sb, b);
    const sure = !!ca?.unit && !!cb?.unit && ca.s.overlap === 1 && cb.s.overlap === 1;
    const settled = decide(ca, cb, wantsMore, sure ? 'high' : 'medium');
    if (settled) return settled;
  }
  // The question's own words around each option decide.
  // What is said of each option, all its sentences together ("… a 2001 documentary film." "It was
  // nominated for Best Documentary Feature."): the words of the question it holds; the sentence
  // holding most of them is quoted.
  const score = (ss: Sentence[]) => {
    let best: { value: number; s: Sentence } | null = null;
    const said = new Set<string>();
    for (const s of ss) {
      const seen = new Set(tokenize(s.text));
      for (const t of rest) if (seen.has(t)) said.add(t);
      const v = rest.filter((t) => seen.has(t)).length + s.overlap * 0.1;
      if (!best || v > best.value) best = { value: v, s };
    }
    return best && { value: said.size + best.s.overlap * 0.1, s: best.s };
  };
  const settled = compare(score, true);
  return settled && { ...settled, confidence: 'low' };
}

/** The description a question writes after an option, between commas: "…, Quiet Harbour, the 1970 documentary?" -> "the 1970 documentary". */
function appositiveOf(question: string, option: string): string {
  const at = question.indexOf(option);
  if (at < 0) return '';
  return /^\s*,\s*((?:the|a|an)\s+[^,?]{2,80}?)\s*(?:,|\?|$)/i.exec(question.slice(at + option.length))?.[1] ?? '';
}
