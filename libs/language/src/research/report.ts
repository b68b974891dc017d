/** The extractive report, answer first: the value that answers the prompt and the sentence stating it, a section per worded sub-question, other evidence, the sources. */
import type { Finding } from '@app/domain';
import { tokenize } from '@app/text';
import { citedIndexes, claimSentences, GAP_NOTE, oneLine, sourcesSection, type ResearchSourceRef } from '@app/research';
import { analyse, type QuestionAnalysis } from './question/analysis';
import { questionKind } from './question/question-shape';
import { typedValue } from './prompt-answer';
import { clean, sameQuestion } from './quotes';

const CONFIDENCE_RANK = { high: 0, medium: 1, low: 2 } as const;
/** Sentences of the "Other evidence" section at most: more would pad the report. */
const OTHER_EVIDENCE = 4;
/** A sub-question written in words (a question or a clause), not a bag of keywords: it may head a section. */
export const isWorded = (q: string) =>
  /[?]\s*$/.test(q) || tokenize(q).length < (q.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/**
 * The extractive report, answer first: `# prompt`; a paragraph that answers it (the value a typed
 * finding found, then the sentence stating it, or the best sentences of the prompt's finding; a
 * follow-up's finding, which restates the prompt with what an earlier round learned, comes first),
 * or a plain "No source answered" when nothing does; then a section per worded sub-question in
 * plan order (headings are the questions themselves), the closest passages of an unanswered typed
 * question, other evidence for an open-ended prompt; then `## Sources`. Every sentence once.
 */
export function extractiveReport(
  prompt: string,
  findings: Finding[],
  sources: ResearchSourceRef[],
  subqueries?: string[],
  restatements: string[] = [],
  given: string[] = [],
): string {
  const known = new Set(sources.map((s) => s.index));
  // Only evidence citing a known source can be written: a claim must resolve.
  const usable = findings
    .map((f) => ({ finding: f, evidence: f.evidence.filter((e) => known.has(e.source) && clean(e.quote)) }))
    .filter((u) => u.evidence.length > 0);
  const topic = oneLine(prompt) || 'Research report';
  const out: string[] = [`# ${topic}`, ''];

  // No sentence twice in a report: each cited sentence is written once, where it first fits.
  const said = new Set<string>();
  const fresh = (quote: string, source: number, limit = Infinity): string[] => {
    const written: string[] = [];
    for (const piece of claimSentences(clean(quote)).map(escapeLineStart)) {
      if (written.length >= limit) break;
      const key = piece
        .toLowerCase()
        .replace(/\[\d+(?:\s*,\s*\d+)*\]/g, '')
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      if (said.has(key)) continue;
      said.add(key);
      written.push(`${piece} [${source}]`);
    }
    return written;
  };
  const findingFor = (q: string) => usable.findLast((u) => sameQuestion(u.finding.subquery, q));
  // Each question read once for the whole report.
  const analyses = new Map<string, QuestionAnalysis>();
  const analysisOf = (q: string) => analyses.get(q) ?? analyses.set(q, analyse(q)).get(q)!;

  // 1. The answer. Questions that restate the prompt (follow-ups) first, then the prompt itself
  // (or the given query it came as), then its worded clauses.
  const order = uniqueStrings([...(subqueries ?? []), ...findings.map((f) => f.subquery)].map(oneLine));
  // The user's own queries are topics in words whatever their form; derived keyword bags are not.
  const worded = order.filter((q) => isWorded(q) || given.some((g) => sameQuestion(g, q)));
  // A follow-up restating the prompt answers it; the prompt's own finding then only came near
  // (the chief executive's company, not where they studied) and does not lead.
  const leadQuestions = uniqueStrings([
    ...restatements.map(oneLine),
    ...(restatements.length ? [] : [topic]),
    ...worded.filter((w) => !(restatements.length && sameQuestion(w, topic))),
  ]);
  const typedPrompt = analysisOf(topic).shape.kind !== 'text';
  const lead: string[] = [];
  const answered = new Set<string>();
  // An open-ended prompt is answered by quotes below; a value leads only what asks for one.
  // A question asking for a short answer (best-answer.ts) leads with it too, where one was found.
  for (const q of typedPrompt || restatements.length || analysisOf(topic).short ? leadQuestions : []) {
    const u = findingFor(q);
    if (!u || lead.length >= 6) continue;
    const value = typedValue(u.finding, analysisOf(u.finding.subquery));
    if (value === null) continue;
    const [first, ...rest] = u.evidence;
    const stated = `**${escapeMarkdown(value)}** [${first!.source}].`;
    if (lead.includes(stated)) continue;
    lead.push(stated, ...fresh(first!.quote, first!.source, 2));
    for (const e of rest.slice(0, 1)) lead.push(...fresh(e.quote, e.source, 1));
    answered.add(oneLine(u.finding.subquery));
    // A restatement's finding answers the prompt: the prompt's own (a near miss) adds nothing to the lead.
    if (restatements.some((r) => sameQuestion(r, q))) answered.add(topic);
    // One typed answer per lead unless the prompt asks several things.
    if (
      !worded.some(
        (w) => !sameQuestion(w, topic) && !sameQuestion(w, q) && !restatements.some((r) => sameQuestion(r, w)),
      )
    )
      break;
  }
  if (lead.length === 0 && !typedPrompt) {
    const best =
      leadQuestions.map(findingFor).find((u) => u) ??
      [...usable].sort((a, b) => CONFIDENCE_RANK[a.finding.confidence] - CONFIDENCE_RANK[b.finding.confidence])[0];
    // A value the answer model withheld is no lead of sentences either: the gap below says why.
    if (best && !(best.finding.verdict && !best.finding.verdict.answered)) {
      for (const e of best.evidence) if (lead.length < 3) lead.push(...fresh(e.quote, e.source, 3 - lead.length));
      answered.add(oneLine(best.finding.subquery));
    }
  }
  // A value the answer model withheld: the first paragraph says why the pages do not answer, then
  // the passage that came closest (the reader may find there what the model could not be sure of).
  const withheld = lead.length
    ? undefined
    : leadQuestions.map(findingFor).find((u) => u?.finding.verdict && !u.finding.verdict.answered);
  const nearest = withheld ? fresh(withheld.evidence[0]!.quote, withheld.evidence[0]!.source, 1) : [];
  const gap = [
    `${GAP_NOTE} ${topic}`,
    ...(withheld ? [escapeMarkdown(withheld.finding.verdict!.reason)] : []),
    ...(nearest.length ? ['The closest passage:', ...nearest] : []),
  ];
  out.push(lead.length ? lead.join(' ') : gap.join(' '), '');

  // 2. A section per worded sub-question, in plan order; the quotes not yet written.
  // A question asking for a value no source states: what came closest, under a heading that says so.
  const closest = typedPrompt && lead.length === 0 ? findingFor(topic) : undefined;
  if (closest) {
    const sentences = closest.evidence.flatMap((e) => fresh(e.quote, e.source));
    if (sentences.length) out.push('## Closest passages', '', sentences.join(' '), '');
  }
  for (const q of uniqueStrings([...worded, ...restatements.map(oneLine)])) {
    // The prompt is the title and the lead answers it: no section repeats it.
    if (sameQuestion(q, topic)) continue;
    const u = findingFor(q);
    if (!u) {
      if (!answered.has(q) && !restatements.some((r) => sameQuestion(r, q)))
        out.push(`## ${headingOf(q)}`, '', `${GAP_NOTE} ${q}`, '');
      continue;
    }
    const typedButUnanswered =
      questionKind(q) !== 'text' && typedValue(u.finding, analysisOf(u.finding.subquery)) === null;
    const sentences = u.evidence.flatMap((e) => fresh(e.quote, e.source));
    if (sentences.length === 0) continue;
    out.push(
      `## ${typedButUnanswered ? `Closest passages: ${headingOf(q)}` : headingOf(q)}`,
      '',
      sentences.join(' '),
      '',
    );
  }

  // 3. Keyword searches found more: worth a short section only when the prompt is open-ended.
  if (!typedPrompt) {
    const other = usable
      .filter(
        (u) => !worded.some((w) => sameQuestion(w, u.finding.subquery)) || sameQuestion(u.finding.subquery, topic),
      )
      .flatMap((u) => u.evidence.flatMap((e) => fresh(e.quote, e.source, 1)));
    if (other.length) out.push('## Other evidence', '', other.slice(0, OTHER_EVIDENCE).join(' '), '');
  }
  const body = out.join('\n');
  return `${body}\n${sourcesSection(citedIndexes(body), sources)}\n`;
}

/** A sub-question as a heading: the question itself, first letter capitalised. */
const headingOf = (q: string) => {
  const line = oneLine(q);
  return line.charAt(0).toUpperCase() + line.slice(1);
};

const escapeMarkdown = (s: string) => s.replace(/([*_`[\]])/g, '\\$1');

/** A quote opening with "#", "-" or "1." would turn into markdown structure at a line start. */
const escapeLineStart = (s: string) => (/^(?:#|>|[-*+]\s)/.test(s) ? `\\${s}` : s.replace(/^(\d+)([.)]\s)/, '$1\\$2'));

function uniqueStrings(items: string[]): string[] {
  return [...new Set(items.filter(Boolean))];
}
