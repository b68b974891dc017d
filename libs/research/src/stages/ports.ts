import type { Finding, RunResult, RunUsage, Source } from '@app/domain';
import type { TokenUsage } from '../research-model.port';
import type { ResearchModel } from '../research-model.port';

/** The research pipeline's input, its ports (search, read, model), its progress callbacks and its outcome. */

export interface ResearchInput {
  prompt: string;
  queries: string[];
  objective: string | null;
  maxSubqueries: number;
  maxFetches: number;
  /** Merged results kept (and so the most sources a report can have). */
  limit: number;
  country: string;
  language: string;
  /** SERP pages per sub-query; default 1. */
  pagesPerSubquery?: number;
  /** URLs per read call; default READ_BATCH. */
  readBatch?: number;
  /** Write the cited report (default true); a caller that only needs the evidence skips the call. */
  synthesise?: boolean;
}

export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
  date: string | null;
  domain?: string;
  /** Relevance in [0, 1], comparable across sub-queries (the search service normalises it). */
  score: number;
  /** Page text the search already has (local index): used as is, no read needed. */
  content?: string;
}

export interface ReadDocument {
  url: string;
  title: string | null;
  text: string;
  error: string | null;
  /** A PDF's page starts (offsets in `text`): its citation names the page that answers (`#page=N`). */
  pageStarts?: number[];
  /** The page was rendered in the browser (the run is charged `sku_render` for it). */
  rendered?: boolean;
}

export interface ResearchPorts {
  search(
    subquery: string,
    page: number,
    locale: { country: string; language: string },
  ): Promise<{ hits: SearchHit[]; hasMore: boolean }>;
  /** One batch of reads; one answer per URL (matched by normalised URL; a missing one is a failure). */
  read(urls: string[]): Promise<ReadDocument[]>;
  model: ResearchModel;
  /** Re-orders (and may drop) results for the objective; unknown URLs in the answer are ignored. */
  rerank?(objective: string, results: RunResult[]): Promise<{ results: RunResult[]; usage?: TokenUsage }>;
}

/** Each callback is awaited before the pipeline goes on (the worker appends an event in each). */
export interface ResearchProgress {
  /** The plan (round 1), then each follow-up round's plan: every sub-query so far, the new ones last. */
  planned(subqueries: string[], pagesTarget: number, round?: number): Promise<void>;
  serpPage(subquery: string, page: number, hits: number): Promise<void>;
  /** `rendered`: the read rendered the page in the browser (charged with the run, whatever the outcome). */
  pageFetched(url: string, ok: boolean, title: string | null, error: string | null, rendered?: boolean): Promise<void>;
  findingGraded(finding: Finding): Promise<void>;
  resultsMerged(results: RunResult[], reranked: boolean): Promise<void>;
  /** Checked before every step and callback: true stops new work at once. */
  stopped(): boolean;
}

export interface ResearchOutcome {
  stopped: boolean;
  subqueries: string[];
  results: RunResult[];
  findings: Finding[];
  /** Follow-up questions that restate the prompt with what earlier rounds learned (their findings answer it). */
  restatements: string[];
  sources: Source[];
  /** null when stopped before the report was written. */
  report: string | null;
  usage: RunUsage;
  reranked: boolean;
  /** Read calls made (each a batch of up to `readBatch` URLs). */
  readBatches: number;
}

/** URLs per read call: big enough to fetch in parallel downstream, small enough to stop promptly. */
export const READ_BATCH = 5;
/** Characters of each document given to the grader per sub-query (focused on the sub-query). */
export const PASSAGE_CHARS = 4_000;
/** Passages per grading call (own results first): bounds a model call's size. */
export const MAX_PASSAGES = 12;
/** Follow-up rounds after the first: a chain of up to three pages (entity -> person -> fact). */
export const MAX_FOLLOW_UP_ROUNDS = 2;
