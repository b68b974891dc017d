/**
 * The language model port: every pipeline step that needs judgement has an `extractive`
 * implementation (offline, deterministic lexical scoring; honest about what it cannot do) and an
 * `openai` one (the official client against any OpenAI-compatible server, JSON-schema answers).
 */
import type { TokenUsage } from '@app/research';
import type { FilterRow, FilterVerdicts } from './filter/row-filter';
import type { SchemaFillRequest, SchemaFillResult } from './schema-fill/schema-fill.port';

// Counted the same way by research models: the type is the research port's (the library whose
// port the language engines implement; it never imports them back).
export type { TokenUsage };

export interface RerankDocument {
  id: string;
  title: string;
  text: string;
}

export interface RerankResult {
  id: string;
  /** Relevance to the objective in [0, 1]. */
  score: number;
  /** False when the document is off-topic for the objective (dropped by the caller). */
  relevant: boolean;
}

export interface LanguageModel {
  readonly name: 'extractive' | 'openai';
  /** Scores documents against a natural-language objective; same order and ids as given. */
  rerank(
    objective: string,
    documents: RerankDocument[],
    signal?: AbortSignal,
  ): Promise<{ results: RerankResult[]; usage: TokenUsage }>;
  /**
   * The passages of `text` that best serve the objective, most relevant first, within
   * `maxChars` characters in all (whole sentences; never invented text).
   */
  excerpts(
    objective: string,
    text: string,
    maxChars: number,
    signal?: AbortSignal,
  ): Promise<{ excerpts: string[]; usage: TokenUsage }>;
  /**
   * Fills a JSON Schema from pages read in a run (task runs): a value per field (null when no page
   * states it) and a basis per top-level field whose excerpts are verbatim page text. The output
   * validates against the schema with every leaf also allowed to be null.
   */
  fillSchema(request: SchemaFillRequest, signal?: AbortSignal): Promise<SchemaFillResult>;
  /** A monitor's `filter_prompt`: whether the predicate holds for each row (null with a note when it cannot be judged). */
  filterRows(
    predicate: string,
    rows: FilterRow[],
    signal?: AbortSignal,
  ): Promise<FilterVerdicts & { usage: TokenUsage }>;
}

export const LANGUAGE_MODEL = Symbol('LANGUAGE_MODEL');
