import type { LanguageModel, RerankDocument, RerankResult, TokenUsage } from './language-model.port';
import { type FilterRow, type FilterVerdicts, filterRowsExtractively } from './filter/row-filter';
import { fillSchemaExtractively } from './schema-fill/extractive.schema-filler';
import type { SchemaFillRequest, SchemaFillResult } from './schema-fill/schema-fill.port';
import { addCounts, bm25, type Scored, sentenceSpans, type Span, tokenize } from '@app/text';

/** A title word counts as this many body words (titles are short and deliberate). */
const TITLE_BOOST = 2;
/** Below this share of the best document's score a document that matches a term is still off-topic. */
const RELEVANT_FRACTION = 0.3;
/** No model is called: reporting invented token counts would distort usage and cost figures. */
const NO_USAGE: TokenUsage = { input: 0, output: 0 };

/**
 * The offline language model: lexical scoring only, deterministic for a given input.
 *
 * rerank score = 0.5 x (BM25 / best BM25 in the set) + 0.5 x (share of the objective's distinct
 * terms the document contains), so the best document is not 1 unless it covers the objective.
 * `relevant` is true when the document contains at least one objective term AND its score is at
 * least 30% of the best score in the set. An objective with no content words (only stopwords)
 * cannot be judged lexically: every document is kept (relevant, score 0).
 *
 * excerpts: sentences scored the same way (idf over the text's sentences), those containing at
 * least one objective term, best first (ties: earlier first), added while the total length stays
 * within maxChars (separators not counted); a sentence that does not fit is skipped. The one
 * exception to whole sentences: when not even the best sentence fits, its longest prefix ending at
 * a word boundary within maxChars is returned (still verbatim). No matching sentence: [].
 *
 * usage is always 0/0 (no tokens are consumed).
 */
export class ExtractiveLanguageModel implements LanguageModel {
  readonly name = 'extractive' as const;

  async rerank(
    objective: string,
    documents: RerankDocument[],
    signal?: AbortSignal,
  ): Promise<{ results: RerankResult[]; usage: TokenUsage }> {
    signal?.throwIfAborted();
    const terms = tokenize(objective);
    if (terms.length === 0)
      return { results: documents.map((d) => ({ id: d.id, score: 0, relevant: true })), usage: NO_USAGE };
    const bags = documents.map((d) => {
      const title = tokenize(d.title);
      const body = tokenize(d.text);
      return {
        counts: addCounts(addCounts(new Map(), body), title, TITLE_BOOST),
        length: body.length + TITLE_BOOST * title.length,
      };
    });
    const scored = bm25(
      terms,
      bags.map((b) => b.counts),
      bags.map((b) => b.length),
    );
    const scores = blend(scored);
    const best = scores.reduce((a, b) => Math.max(a, b), 0);
    const results = documents.map((d, i) => ({
      id: d.id,
      score: scores[i]!,
      relevant: scored[i]!.matched > 0 && scores[i]! >= RELEVANT_FRACTION * best,
    }));
    return { results, usage: NO_USAGE };
  }

  async excerpts(
    objective: string,
    text: string,
    maxChars: number,
    signal?: AbortSignal,
  ): Promise<{ excerpts: string[]; usage: TokenUsage }> {
    signal?.throwIfAborted();
    return { excerpts: extractiveExcerpts(objective, text, maxChars), usage: NO_USAGE };
  }

  async fillSchema(request: SchemaFillRequest, signal?: AbortSignal): Promise<SchemaFillResult> {
    signal?.throwIfAborted();
    return fillSchemaExtractively(request);
  }

  async filterRows(
    predicate: string,
    rows: FilterRow[],
    signal?: AbortSignal,
  ): Promise<FilterVerdicts & { usage: TokenUsage }> {
    signal?.throwIfAborted();
    return { ...filterRowsExtractively(predicate, rows), usage: NO_USAGE };
  }
}

export function extractiveExcerpts(objective: string, text: string, maxChars: number): string[] {
  const terms = tokenize(objective);
  if (terms.length === 0 || maxChars <= 0) return [];
  const spans = sentenceSpans(text);
  const tokens = spans.map((s) => tokenize(s.text));
  const scored = bm25(
    terms,
    tokens.map((t) => addCounts(new Map(), t)),
    tokens.map((t) => t.length),
  );
  const scores = blend(scored);
  const ranked = spans
    .map((span, i) => ({ span, score: scores[i]!, matched: scored[i]!.matched, i }))
    .filter((s) => s.matched > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const picked: Span[] = [];
  let used = 0;
  for (const { span } of ranked) {
    if (used + span.text.length > maxChars) continue;
    picked.push(span);
    used += span.text.length;
  }
  if (picked.length === 0 && ranked.length > 0) {
    const prefix = wordPrefix(ranked[0]!.span.text, maxChars);
    return prefix ? [prefix] : [];
  }
  return picked.map((s) => s.text);
}

function blend(scored: Scored[]): number[] {
  // reduce, not Math.max(...): a long page has more sentences than a call has argument slots.
  const maxRaw = scored.reduce((a, s) => Math.max(a, s.raw), 0);
  // Rounded so that float noise never reorders equal documents across platforms.
  return scored.map((s) => (maxRaw > 0 ? Math.round((0.5 * (s.raw / maxRaw) + 0.5 * s.coverage) * 1e6) / 1e6 : 0));
}

function wordPrefix(sentence: string, maxChars: number): string {
  if (sentence.length <= maxChars) return sentence;
  const cut = sentence.slice(0, maxChars + 1);
  const lastSpace = cut.search(/\s\S*$/);
  return (lastSpace > 0 ? cut.slice(0, lastSpace) : '').trimEnd();
}
