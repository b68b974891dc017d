/**
 * The offline research model (the class) and the names its stages export: plan (plan.ts), grade
 * (grade.ts), follow-ups (follow-ups.ts), the prompt's answer (prompt-answer.ts), the report (report.ts).
 */
import type { Finding } from '@app/domain';
import type { TokenUsage } from '../language-model.port';
import type {
  FollowUp,
  ResearchCallOptions,
  ResearchModel,
  ResearchPassage,
  ResearchSourceRef,
  SynthesiseOptions,
} from '@app/research';
import { extractiveFollowUps } from './follow-ups';
import { gradeExtractive } from './grade';
import { planSubqueries } from './plan';
import { extractiveReport } from './report';

export { extractiveFollowUps } from './follow-ups';
export { gradeExtractive, gradeRules, judged } from './grade';
export { uniqueQueries } from './plan';
export { promptAbstention, type PromptAnswer, promptAnswer } from './prompt-answer';
export { extractiveReport, isWorded } from './report';

/** No model is called: invented token counts would distort usage and cost figures. */
const NO_USAGE: TokenUsage = { input: 0, output: 0 };

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

  async plan(
    prompt: string,
    queries: string[],
    maxSubqueries: number,
    options?: ResearchCallOptions,
  ): Promise<{ subqueries: string[]; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return { subqueries: planSubqueries(prompt, queries, maxSubqueries), usage: NO_USAGE };
  }

  async grade(
    subquery: string,
    passages: ResearchPassage[],
    options?: ResearchCallOptions,
  ): Promise<{ finding: Finding | null; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return { finding: gradeExtractive(subquery, passages), usage: NO_USAGE };
  }

  async followUp(
    question: string,
    passages: ResearchPassage[],
    max: number,
    options?: ResearchCallOptions,
  ): Promise<{ followUps: FollowUp[]; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return {
      followUps: max >= 1 ? extractiveFollowUps(question, passages, Math.floor(max)).slice(0, Math.floor(max)) : [],
      usage: NO_USAGE,
    };
  }

  async synthesise(
    prompt: string,
    findings: Finding[],
    sources: ResearchSourceRef[],
    options?: SynthesiseOptions,
  ): Promise<{ report: string; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return {
      report: extractiveReport(prompt, findings, sources, options?.subqueries, options?.restatements, options?.queries),
      usage: NO_USAGE,
    };
  }
}
