import type { Finding } from '@app/domain/search-run/search-run.events';
import type { TokenUsage } from '../language-model.port';
import { addCounts, bm25, sentenceSpans, tokenize } from '../lexical';
import { citedIndexes, claimSentences, GAP_NOTE, oneLine, sourcesSection } from './report-citations';
import type { ResearchCallOptions, ResearchModel, ResearchPassage, ResearchSourceRef, SynthesiseOptions } from './research-model.port';

/** No model is called: invented token counts would distort usage and cost figures. */
const NO_USAGE: TokenUsage = { input: 0, output: 0 };
/** Shorter "sentences" are headings and menu items; longer ones are run-on boilerplate. */
const MIN_SENTENCE = 20;
const MAX_SENTENCE = 600;
/** A sentence within this share of the best score agrees with it (and may join the answer). */
const AGREE_FRACTION = 0.6;
const MAX_ANSWER_SENTENCES = 3;
/** Salient prompt terms used for keyword sub-queries. */
const SALIENT_TERMS = 5;
const SUMMARY_FINDINGS = 3;
/** How a research question is phrased, not what it is about: never a keyword on its own. */
const PHRASING = new Set('compare compared comparing comparison versus vs difference differences explain describe overview summary summarise summarize list'.split(' '));
/** Clause breaks: question marks, semicolons, line breaks, sentence ends and joining words. */
const CLAUSE_BREAK = /[?!;\n]+|\.(?=\s|$)|,?\s+\b(?:and|but|or|versus|vs\.?|compared (?:to|with)|as well as|whereas|while)\b\s+/i;
/** Footnote marks copied from pages ("[12]", "[citation needed]") would read as our citations. */
const FOOTNOTE = /\s*\[(?:\d+(?:\s*,\s*\d+)*|citation needed)\]/gi;

/**
 * The offline research model: lexical only, deterministic for a given input, never writes a
 * word that is not either structure (headings, gap notes, the sources list) or a verbatim quote.
 *
 * plan: the given queries, then the whole prompt, its clauses (split at ? ; line breaks, sentence
 * ends and "and/but/or/versus/…"; a derived clause needs two content words), then keyword
 * combinations of its most salient terms (frequency, then first use). Unique by stemmed term set.
 *
 * grade: every passage sentence scored against the sub-query (BM25 over the sentences, blended
 * with term coverage as ExtractiveLanguageModel does). A sentence counts only when it contains at
 * least two of the sub-query's distinct terms (one for a one-term sub-query): otherwise null.
 * Answer: the best sentence plus up to two more within 60% of its score, other sources first.
 * Confidence: high when the best sentence covers >= 60% of the terms AND >= 2 sources agree (have a
 * sentence within 60% of the best), medium when one of the two holds, else low.
 *
 * synthesise: `# prompt`, a summary of the highest-confidence findings' lead quotes, a section per
 * sub-question with its quotes each followed by `[N]` (every sentence once in the whole report; a
 * section with nothing new is left out), then `## Sources` for the cited indexes.
 */
export class ExtractiveResearchModel implements ResearchModel {
  readonly name = 'extractive' as const;

  async plan(prompt: string, queries: string[], maxSubqueries: number, options?: ResearchCallOptions): Promise<{ subqueries: string[]; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    const cap = Math.max(0, Math.floor(maxSubqueries));
    const given = queries.map(oneLine).filter(Boolean);
    const whole = oneLine(prompt).replace(/[?.!]+$/, '');
    const clauses = oneLine(prompt)
      .split(CLAUSE_BREAK)
      .map((c) => oneLine(c ?? '').replace(/^[,:\s-]+|[,:\s-]+$/g, ''))
      .filter((c) => new Set(tokenize(c)).size >= 2);
    const derived = [whole, ...clauses, ...keywordQueries(prompt)].filter((q) => tokenize(q).length > 0);
    return { subqueries: uniqueQueries([...given, ...derived]).slice(0, cap), usage: NO_USAGE };
  }

  async grade(subquery: string, passages: ResearchPassage[], options?: ResearchCallOptions): Promise<{ finding: Finding | null; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return { finding: gradeExtractive(subquery, passages), usage: NO_USAGE };
  }

  async synthesise(prompt: string, findings: Finding[], sources: ResearchSourceRef[], options?: SynthesiseOptions): Promise<{ report: string; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return { report: extractiveReport(prompt, findings, sources, options?.subqueries), usage: NO_USAGE };
  }
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
  const phrase = (picked: typeof salient) => [...picked].sort((a, b) => a.first - b.first).map((e) => e.word).join(' ');
  if (salient.length <= 3) return salient.length ? [phrase(salient)] : [];
  // All salient terms together, then triples, most salient first: narrower searches that still
  // keep enough context to land on-topic.
  const out = [phrase(salient)];
  for (let i = 0; i < salient.length; i++)
    for (let j = i + 1; j < salient.length; j++) for (let k = j + 1; k < salient.length; k++) out.push(phrase([salient[i]!, salient[j]!, salient[k]!]));
  return out;
}

interface Candidate {
  source: number;
  text: string;
  score: number;
  coverage: number;
  order: number;
}

export function gradeExtractive(subquery: string, passages: ResearchPassage[]): Finding | null {
  const terms = [...new Set(tokenize(subquery))];
  if (terms.length === 0) return null;
  const units = passages.flatMap((p) =>
    sentenceSpans(p.text)
      .filter((s) => s.text.length >= MIN_SENTENCE && s.text.length <= MAX_SENTENCE)
      .map((s) => ({ source: p.source, text: s.text })),
  );
  const tokens = units.map((u) => tokenize(u.text));
  const scored = bm25(terms, tokens.map((t) => addCounts(new Map(), t)), tokens.map((t) => t.length));
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

const CONFIDENCE_RANK = { high: 0, medium: 1, low: 2 } as const;

export function extractiveReport(prompt: string, findings: Finding[], sources: ResearchSourceRef[], subqueries?: string[]): string {
  const known = new Set(sources.map((s) => s.index));
  // Only evidence citing a known source can be written: a claim must resolve.
  const usable = findings
    .map((f) => ({ finding: f, evidence: f.evidence.filter((e) => known.has(e.source) && clean(e.quote)) }))
    .filter((u) => u.evidence.length > 0);
  const topic = oneLine(prompt) || 'Research report';
  const out: string[] = [`# ${topic}`, ''];

  // No sentence twice in a report: each cited sentence is written once, where it first fits.
  const said = new Set<string>();
  const fresh = (quote: string, source: number, firstOnly = false): string[] => {
    const pieces = claimSentences(clean(quote)).map(escapeLineStart);
    const out: string[] = [];
    for (const piece of firstOnly ? pieces.slice(0, 1) : pieces) {
      const key = piece.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
      if (said.has(key)) continue;
      said.add(key);
      out.push(`${piece} [${source}]`);
    }
    return out;
  };

  const lead = [...usable]
    .map((u, i) => ({ ...u, i }))
    .sort((a, b) => CONFIDENCE_RANK[a.finding.confidence] - CONFIDENCE_RANK[b.finding.confidence] || a.i - b.i)
    .slice(0, SUMMARY_FINDINGS);
  const summary = lead.flatMap((u) => fresh(u.evidence[0]!.quote, u.evidence[0]!.source, true));
  out.push(summary.length ? summary.join(' ') : `${GAP_NOTE} ${topic}`, '');

  const order = uniqueStrings([...(subqueries ?? []), ...findings.map((f) => f.subquery)].map(oneLine));
  for (const subquery of order) {
    const own = usable.filter((u) => oneLine(u.finding.subquery) === subquery);
    if (own.length === 0) {
      out.push(`## ${subquery}`, '', `${GAP_NOTE} ${subquery}`, '');
      continue;
    }
    const sentences = own.flatMap((u) => u.evidence.flatMap((e) => fresh(e.quote, e.source)));
    // A section whose every sentence was already written above adds nothing: it is left out.
    if (sentences.length) out.push(`## ${subquery}`, '', sentences.join(' '), '');
  }
  const body = out.join('\n');
  return `${body}\n${sourcesSection(citedIndexes(body), sources)}\n`;
}

const clean = (quote: string) => oneLine(quote.replace(FOOTNOTE, ''));

/** A quote opening with "#", "-" or "1." would turn into markdown structure at a line start. */
const escapeLineStart = (s: string) => (/^(?:#|>|[-*+]\s)/.test(s) ? `\\${s}` : s.replace(/^(\d+)([.)]\s)/, '$1\\$2'));

function uniqueStrings(items: string[]): string[] {
  return [...new Set(items.filter(Boolean))];
}
