import type { Finding, RunResult, RunUsage, Source } from '@app/domain';
import { focusExcerpts } from '@app/extraction';
import type { TokenUsage } from '../research-model.port';
import { type MergedHit, UrlMerge } from '../merge';
import { tokenize } from '@app/text';
import { domainOf, normalizeUrl } from '@app/urls';
import { PASSAGE_CHARS, READ_BATCH, type ResearchInput, type ResearchOutcome, type SearchHit } from './ports';

/** A merged search result (see `UrlMerge`); `queries` are indexes into the state's sub-queries. */
export type Entry = MergedHit<SearchHit>;

/** A read attempt: recorded once reported (PageFetched), failed or not. */
export interface Doc {
  ok: boolean;
  title: string | null;
  text: string;
  /** A read PDF's page starts (offsets in `text`). */
  pageStarts?: number[];
}

/**
 * Everything a research run has learnt so far. Each stage takes it with the ports it needs,
 * updates it and says whether the run was stopped; the outcome is read off it at any point.
 */
export interface ResearchState {
  readonly input: ResearchInput;
  /** SERP pages per sub-query (at least 1). */
  readonly pagesPer: number;
  /** Merged results kept. */
  readonly limit: number;
  readonly maxSubqueries: number;
  /** URLs per read call. */
  readonly batchSize: number;
  /** Reads the budget still allows. */
  fetchesLeft: number;
  /** Planned, then each follow-up round's new ones appended. */
  subqueries: string[];
  readonly entries: UrlMerge<SearchHit>;
  /** Read attempts by normalised URL. */
  readonly docs: Map<string, Doc>;
  readonly findings: Finding[];
  /** The re-ranker's order, when it ran. */
  reranked: RunResult[] | null;
  /** Numbered once the first reads are done; follow-up rounds append to them. */
  sources: Source[] | null;
  readBatches: number;
  readonly usage: RunUsage;
  /** What the follow-up rounds restated the question as, latest first. */
  readonly restatements: string[];
  /** The question the next follow-up round looks at. */
  question: string;
  report: string | null;
}

export function initialState(input: ResearchInput): ResearchState {
  return {
    input,
    pagesPer: Math.max(1, Math.floor(input.pagesPerSubquery ?? 1)),
    limit: Math.max(0, Math.floor(input.limit)),
    maxSubqueries: Math.max(0, Math.floor(input.maxSubqueries)),
    batchSize: Math.max(1, Math.floor(input.readBatch ?? READ_BATCH)),
    fetchesLeft: Math.max(0, Math.floor(input.maxFetches)),
    subqueries: [],
    entries: new UrlMerge<SearchHit>(),
    docs: new Map(),
    findings: [],
    reranked: null,
    sources: null,
    readBatches: 0,
    usage: {
      planner_calls: 0,
      grader_calls: 0,
      synth_calls: 0,
      search_queries: 0,
      pages_fetched: 0,
      tokens: { input: 0, output: 0 },
    },
    restatements: [],
    question: input.prompt.trim() || input.queries[0] || '',
    report: null,
  };
}

export function addTokens(state: ResearchState, u?: TokenUsage): void {
  state.usage.tokens.input += u?.input ?? 0;
  state.usage.tokens.output += u?.output ?? 0;
}

/** Best first, ties in first-seen order. */
export const byRank = (a: Entry, b: Entry) => b.score - a.score || a.seen - b.seen;

/** The results so far: the re-ranker's order, else the best `limit` merged ones. */
export function mergedResults(state: ResearchState): RunResult[] {
  return state.reranked ?? state.entries.values().sort(byRank).slice(0, state.limit).map(toResult);
}

/** The numbered sources, or (before the first reads are done) what they would be now. */
export function sourcesOf(state: ResearchState): Source[] {
  return state.sources ?? numberSources(mergedResults(state), state.entries, state.docs, state.subqueries);
}

export function outcomeOf(state: ResearchState, stopped: boolean): ResearchOutcome {
  return {
    stopped,
    subqueries: state.subqueries,
    results: mergedResults(state),
    findings: [...state.findings],
    restatements: [...state.restatements],
    sources: sourcesOf(state),
    report: state.report,
    usage: { ...state.usage, tokens: { ...state.usage.tokens } },
    reranked: state.reranked !== null,
    readBatches: state.readBatches,
  };
}

export function toResult(e: Entry): RunResult {
  return {
    url: e.hit.url,
    title: e.hit.title,
    snippet: e.hit.snippet,
    date: e.hit.date ?? null,
    domain: e.hit.domain || domainOf(e.hit.url),
    score: e.score,
  };
}

/** Numbers the results 1.. in first-seen order; `subqueries` name the sub-query that first found each. */
export function numberSources(
  results: RunResult[],
  entries: { get(key: string): Entry | undefined },
  docs: Map<string, Doc>,
  subqueries: string[],
): Source[] {
  return results
    .map((r) => ({ r, e: entries.get(normalizeUrl(r.url))! }))
    .filter(({ e }) => e)
    .sort((a, b) => a.e.seen - b.e.seen)
    .map(({ r, e }, i) => {
      const doc = docs.get(e.key);
      const text = fullText(e, docs) ?? '';
      const subquery = subqueries[e.queries.values().next().value!]!;
      return {
        index: i + 1,
        url: !contentOf(e) && doc?.ok && doc.pageStarts ? withPage(r.url, doc.text, doc.pageStarts, subquery) : r.url,
        title: (doc?.ok && doc.title) || r.title,
        domain: r.domain,
        fetched: text.length > 0,
        quality: quality(r.score, doc ? doc.ok : null, text.length),
        first_seen_subquery: subquery,
      };
    });
}

/**
 * A read PDF's address with the page that answers: `#page=N` for the page holding the most of the
 * sub-query's words (the first such), as PDF viewers open it.
 */
export function withPage(url: string, text: string, pageStarts: readonly number[], question: string): string {
  if (pageStarts.length === 0 || url.includes('#')) return url;
  const wanted = new Set(tokenize(question).filter((w) => w.length > 2));
  let best = 0;
  let bestScore = -1;
  pageStarts.forEach((start, i) => {
    const score = tokenize(text.slice(start, pageStarts[i + 1] ?? text.length)).filter((w) => wanted.has(w)).length;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return `${url}#page=${best + 1}`;
}

/** A failed read is low; a long read page from a well-scored hit is high; some text or a strong hit is medium. */
function quality(score: number, readOk: boolean | null, textLength: number): Source['quality'] {
  if (readOk === false) return 'low';
  if (textLength >= 2_000 && score >= 0.5) return 'high';
  if (textLength >= 500 || score >= 0.5) return 'medium';
  return 'low';
}

/** The text the search gave with the hit, if any (then no read is needed). */
export const contentOf = (e: Entry): string | null => (e.hit.content?.trim() ? e.hit.content : null);

/** The page's text the run has: given with the hit, or read. */
export const fullText = (e: Entry, docs: Map<string, Doc>): string | null => {
  const doc = docs.get(e.key);
  return contentOf(e) ?? (doc?.ok ? doc.text : null);
};

/**
 * What a source says for a judgement: its text (focused, see `focused`); unread, its snippet (still
 * the page's own words); after a failed read nothing, as the page may be gone.
 */
export function evidenceText(e: Entry, docs: Map<string, Doc>, question: string): string {
  const full = fullText(e, docs);
  if (full) return focused(full, question);
  return docs.has(e.key) ? '' : e.hit.snippet;
}

/**
 * A page's text for a judgement: whole when it fits the passage budget (an answer may use none of
 * the question's words: "head office" for "headquartered"), else the excerpts focused on the question.
 */
const focused = (text: string, question: string) =>
  text.length <= PASSAGE_CHARS ? text : focusExcerpts(text, question, PASSAGE_CHARS).join('\n\n');

export const oneLine = (q: string) => q.replace(/\s+/g, ' ').trim();
