/** The extractive plan: the given queries, the whole prompt, its clauses, then keyword combinations of its most salient terms, with room left for follow-ups where the question will need them. */
import { nlp } from '../lazy-parsers';
import { tokenize } from '@app/text';
import { oneLine } from '@app/research';
import { analyse } from './question/analysis';

/** Sub-queries a plan leaves for follow-ups when the question will need them (of 4 or more). */
const FOLLOW_UP_RESERVE = 2;
/** Sub-queries a plan leaves for a bridge's page (of 4 or more) where the question may need one. */
const BRIDGE_RESERVE = 1;
/** Salient prompt terms used for keyword sub-queries. */
const SALIENT_TERMS = 5;
/** How a research question is phrased, not what it is about: never a keyword on its own. */
const PHRASING = new Set(
  'compare compared comparing comparison versus vs difference differences explain describe overview summary summarise summarize list'.split(
    ' ',
  ),
);
/** Clause breaks: question marks, semicolons, line breaks, sentence ends and joining words. */
const CLAUSE_BREAK =
  /[?!;\n]+|\.(?=\s|$)|,?\s+\b(?:and|but|or|versus|vs\.?|compared (?:to|with)|as well as|whereas|while)\b\s+/i;

/** The plan's sub-queries for `prompt` (see ExtractiveResearchModel), at most `maxSubqueries`. */
export function planSubqueries(prompt: string, queries: string[], maxSubqueries: number): string[] {
  const whole0 = Math.max(0, Math.floor(maxSubqueries));
  // A question about whoever holds a role at an entity, or one a bridge may answer (a value asked
  // of something the question only describes), will need follow-ups: room is left for them.
  const question = analyse(prompt);
  const short = question.short?.kind;
  const reserve = question.shape.relation
    ? FOLLOW_UP_RESERVE
    : short !== undefined && short !== 'choice' && short !== 'yesno' && describesUnnamed(prompt)
      ? BRIDGE_RESERVE
      : 0;
  const cap = whole0 >= 4 ? whole0 - Math.min(reserve, Math.floor(whole0 / 4)) : whole0;
  const given = queries.map(oneLine).filter(Boolean);
  const whole = oneLine(prompt).replace(/[?.!]+$/, '');
  const clauses = oneLine(prompt)
    .split(CLAUSE_BREAK)
    .map((c) => oneLine(c ?? '').replace(/^[,:\s-]+|[,:\s-]+$/g, ''))
    .filter((c) => new Set(tokenize(c)).size >= 2);
  const derived = [whole, ...clauses, ...keywordQueries(prompt)].filter((q) => tokenize(q).length > 0);
  return uniqueQueries([...given, ...derived]).slice(0, cap);
}

/**
 * Whether a question describes a thing it does not name, through a clause or a possessive ("the
 * university whose main campus…", "Dorin Vasch's team", "someone born in…"): a bridge may be needed.
 * Read with compromise (a relative pronoun past the question's opening, a possessive).
 */
function describesUnnamed(question: string): boolean {
  const doc = nlp(question);
  if (doc.has('#Possessive') || /\b(?:someone|somebody|something)\b/i.test(question)) return true;
  const words = question.split(/\s+/);
  return words.slice(2).some((w) => /^(?:who|whom|whose|which|that|where)$/i.test(w.replace(/[^\p{L}]/gu, '')));
}

/** First spelling wins; two queries with the same stemmed terms are one query. */
export function uniqueQueries(queries: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const q of queries) {
    const terms = [...new Set(tokenize(q))].sort();
    const key = terms.length ? terms.join(' ') : q.toLowerCase();
    if (!q || seen.has(key)) continue;
    seen.add(key);
    out.push(q);
  }
  return out;
}

function keywordQueries(prompt: string): string[] {
  const byStem = new Map<string, { word: string; count: number; first: number }>();
  let position = 0;
  for (const m of prompt.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const stemmed = tokenize(m[0])[0];
    if (!stemmed || PHRASING.has(m[0])) continue;
    const entry = byStem.get(stemmed);
    if (entry) entry.count++;
    else byStem.set(stemmed, { word: m[0], count: 1, first: position++ });
  }
  const salient = [...byStem.values()].sort((a, b) => b.count - a.count || a.first - b.first).slice(0, SALIENT_TERMS);
  // Words in prompt order read like the prompt; the choice of words follows salience.
  const phrase = (picked: typeof salient) =>
    [...picked]
      .sort((a, b) => a.first - b.first)
      .map((e) => e.word)
      .join(' ');
  if (salient.length <= 3) return salient.length ? [phrase(salient)] : [];
  // All salient terms together, then triples, most salient first: narrower searches that still
  // keep enough context to land on-topic.
  const out = [phrase(salient)];
  for (let i = 0; i < salient.length; i++)
    for (let j = i + 1; j < salient.length; j++)
      for (let k = j + 1; k < salient.length; k++) out.push(phrase([salient[i]!, salient[j]!, salient[k]!]));
  return out;
}
