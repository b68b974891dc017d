import type { Finding, Source } from '@app/domain';

/**
 * The judgement steps of the research pipeline (deep search, tasks, FindAll, monitors, chat):
 * plan sub-questions, grade evidence for one sub-question, write the cited report. Like
 * LanguageModel it has an `extractive` implementation (offline, deterministic, verbatim quotes
 * only) and an `openai` one (strict JSON-schema answers, checked against the passages).
 */
/** Tokens a model call used (zero for the extractive engines). */
export interface TokenUsage {
  input: number;
  output: number;
}

export interface ResearchPassage {
  /** The source's 1-based index, as it will be cited (`[N]`). */
  source: number;
  url: string;
  title: string;
  text: string;
}

/** What a report needs to know of a source; `Source` fits as is. */
export type ResearchSourceRef = Pick<Source, 'index' | 'url' | 'title'>;

export interface ResearchCallOptions {
  signal?: AbortSignal;
}

export interface SynthesiseOptions extends ResearchCallOptions {
  /** The planned sub-questions: those without a finding get an explicit gap note. */
  subqueries?: string[];
  /**
   * Follow-up questions that restate the prompt with what earlier rounds learned ("Where did Dana
   * Whitcombe study?" for "Where did the chief executive of X study?"): their findings answer the prompt.
   */
  restatements?: string[];
  /** The user's own queries: each is a topic of the report, whatever its form. */
  queries?: string[];
}

/** A question to research next, learned from the evidence so far. */
export interface FollowUp {
  /** The new sub-question, naming what the evidence named ("Where did Dana Whitcombe study?"). */
  subquery: string;
  /** It restates the question asked (its answer answers that question), rather than widening it. */
  restates: boolean;
  /** The verbatim passage sentence that named the entity the sub-question is about. */
  via: { source: number; quote: string } | null;
  /**
   * A page to read for the question itself (a bridge: "the film" of "a film directed by which
   * director?" is named on the actor's page): once read, the question is graded again over
   * everything read, and that finding answers it.
   */
  regrade?: boolean;
}

export interface ResearchModel {
  readonly name: 'extractive' | 'openai';
  /** The given queries first (as given), then derived sub-questions; unique; at most `maxSubqueries`. */
  plan(
    prompt: string,
    queries: string[],
    maxSubqueries: number,
    options?: ResearchCallOptions,
  ): Promise<{ subqueries: string[]; usage: TokenUsage }>;
  /**
   * What the passages say about `subquery`: evidence quotes are verbatim substrings of the passage
   * of the source they name, citations are those sources. null when nothing answers it.
   */
  grade(
    subquery: string,
    passages: ResearchPassage[],
    options?: ResearchCallOptions,
  ): Promise<{ finding: Finding | null; usage: TokenUsage }>;
  /**
   * A markdown report: every claim sentence carries one or more `[N]` that resolve to `sources`
   * indexes; only headings, the `## Sources` list and "No source answered: …" gap notes are uncited.
   */
  /**
   * After a round of evidence: the sub-questions the question's unresolved part depends on, naming
   * entities the passages name (the person who holds a role the question asks about, a product, an
   * organisation), at most `max`; none when the evidence already answers it or names nothing to follow.
   */
  followUp(
    question: string,
    passages: ResearchPassage[],
    max: number,
    options?: ResearchCallOptions,
  ): Promise<{ followUps: FollowUp[]; usage: TokenUsage }>;
  synthesise(
    prompt: string,
    findings: Finding[],
    sources: ResearchSourceRef[],
    options?: SynthesiseOptions,
  ): Promise<{ report: string; usage: TokenUsage }>;
}

export const RESEARCH_MODEL = Symbol('RESEARCH_MODEL');
