/** The value that answers a research prompt, as its findings state it: a typed finding's value, or a short answer its first quote states. */
import type { Finding } from '@app/domain';
import { oneLine } from '@app/research';
import { analyse, type QuestionAnalysis } from './question/analysis';
import { clean, sameQuestion } from './quotes';

/** A typed finding's answer is its value, not its quotes joined. `question`: the analysis of the finding's subquery. */
export const typedValue = (f: Finding, question: QuestionAnalysis, things = false) => {
  if (f.answer.length > 120 || f.evidence.some((e) => clean(e.quote) === clean(f.answer))) return null;
  if (question.shape.kind !== 'text') return f.answer;
  // A short answer (best-answer.ts) is a value its first quote states, or yes/no. A thing's noun
  // phrase answers a task's field (things), not a report's lead: there the sentences lead.
  const short = question.short;
  const kind = short?.kind;
  if (!kind || (kind === 'thing' && !things)) return null;
  // Which of two is answered by an option as the question writes it, settled by sentences that
  // need not repeat its name ("It covers 543 km²" on the park's own page).
  if (kind === 'choice') return short.options?.includes(f.answer) ? f.answer : null;
  return /^(?:yes|no)$/.test(f.answer) || f.evidence.some((e) => e.quote.includes(f.answer)) ? f.answer : null;
};

/** The short answer to a research prompt: the value its finding states, where it asks for one. */
export interface PromptAnswer {
  value: string;
  confidence: Finding['confidence'];
  /** The sources stating it (1-based, as cited). */
  citations: number[];
  /** The sentence that states it, verbatim, and the source it is from. */
  quote: string;
  source: number;
  /** The answer model's verdict in words, where it judged the value. */
  judged?: string;
}

/**
 * The value that answers `prompt`, as the report's first paragraph leads with it: a follow-up's
 * finding that restates the prompt first, then the prompt's own; a value only where the question
 * asks for one (a person, a date, a number...) and the finding found it. null otherwise: no
 * sentence stands in for a value. Each question considered that has a finding is analysed once
 * (its finding's own subquery, as graded).
 */
export function promptAnswer(prompt: string, findings: Finding[], restatements: string[] = []): PromptAnswer | null {
  for (const q of [...restatements, prompt].map(oneLine)) {
    // The latest finding for it: a question graded again once a bridge's page was read.
    const finding = findings.findLast((f) => sameQuestion(f.subquery, q) && f.evidence.length > 0);
    const value = finding && typedValue(finding, analyse(finding.subquery), true);
    if (finding && value)
      return {
        value,
        confidence: finding.confidence,
        citations: finding.citations,
        quote: finding.evidence[0]!.quote,
        source: finding.evidence[0]!.source,
        ...(finding.verdict ? { judged: finding.verdict.reason } : {}),
      };
  }
  return null;
}

/**
 * Why a prompt has no value, where the answer model withheld the one read: the reason its verdict
 * gives ("The pages read name no person who founded …: the closest candidate, "Denver", is a
 * place, not a person."). null where no value was read at all, or one was given.
 */
export function promptAbstention(prompt: string, findings: Finding[], restatements: string[] = []): string | null {
  if (promptAnswer(prompt, findings, restatements)) return null;
  for (const q of [...restatements, prompt].map(oneLine)) {
    const verdict = findings.findLast((f) => sameQuestion(f.subquery, q) && f.evidence.length > 0)?.verdict;
    if (verdict && !verdict.answered) return verdict.reason;
  }
  return null;
}
