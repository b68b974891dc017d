import {
  queriesWithinBudget,
  type RecordedCommand,
  type RunResult,
  type DeepSearchParams,
  searchRuns,
  type SearchRunState,
} from '@app/domain';
import { cutAtWord, ExcerptBudget, focusExcerpts } from '@app/extraction';
import { runResearch } from '@app/research';
import { normalizeUrl } from '@app/urls';
import { type RunContext, type RunExecutor, RunExecutorOf } from '@app/runs';
import { recordedProgress } from './research-progress';
import { type PageFilters, ResearchPortsFactory } from './research-ports';
import { followUpQuestion } from './follow-up-question';

const HIGHLIGHT_CHARS = 1_000;
const SUMMARY_CHARS = 400;
/**
 * UTF-8 bytes of page text one run's results may carry in all: they are recorded in one event,
 * and an append holds 1 MiB at most (EventStoreDB). Past it each row's text is cut to a fair share.
 */
export const RESULTS_TEXT_BYTES = 512 * 1024;

/** Cuts the rows' `text` so that together they hold at most `budget` UTF-8 bytes, each getting a fair share of what is left. */
export function fitTexts(results: RunResult[], budget = RESULTS_TEXT_BYTES): RunResult[] {
  const sizes = results.map((row) => (row.text ? Buffer.byteLength(row.text) : 0));
  if (sizes.reduce((a, b) => a + b, 0) <= budget) return results;
  // Smallest first: a short text keeps all of itself, and what it leaves goes to the longer ones.
  const order = sizes
    .map((size, i) => i)
    .filter((i) => sizes[i]! > 0)
    .sort((a, b) => sizes[a]! - sizes[b]!);
  const allowed = new Map<number, number>();
  let left = budget;
  order.forEach((i, k) => {
    const share = Math.floor(left / (order.length - k));
    allowed.set(i, Math.min(sizes[i]!, share));
    left -= allowed.get(i)!;
  });
  return results.map((row, i) => {
    const bytes = allowed.get(i);
    if (!row.text || bytes === undefined || bytes >= sizes[i]!) return row;
    // Characters in proportion to this text's bytes per character, cut at a word.
    const chars = Math.floor((row.text.length * bytes) / sizes[i]!);
    return { ...row, text: cutAtWord(row.text, chars) };
  });
}

/** The filters of POST /v1/search that a deep run's searches apply (source_policy joins the top-level ones). */
export function deepFilters(params: DeepSearchParams): PageFilters {
  const policy = params.advanced_settings?.source_policy;
  const include = [...(params.include_domains ?? []), ...(policy?.include_domains ?? [])];
  const exclude = [...(params.exclude_domains ?? []), ...(policy?.exclude_domains ?? [])];
  return {
    category: (params.category ?? null) as PageFilters['category'],
    freshness: params.freshness ?? null,
    include_domains: include.length ? include : null,
    exclude_domains: exclude.length ? exclude : null,
    after_date: policy?.after_date ?? null,
    before_date: policy?.before_date ?? null,
  };
}

/**
 * Excerpt sizing of a deep run's results, as a synchronous search sizes its rows:
 * `advanced_settings.excerpts.max_chars_per_result` per snippet, then `max_excerpt_chars` as one
 * budget over every excerpt-like string (snippet, highlights, summary) of all rows in rank order.
 * `text` is left out: it is the page itself, sized by `advanced_settings.contents.max_chars`.
 * Run on the rows with their contents, so the budget sees them.
 */
export function shapeSnippets(results: RunResult[], params: DeepSearchParams): RunResult[] {
  const perResult = params.advanced_settings?.excerpts?.max_chars_per_result ?? null;
  const budget = new ExcerptBudget(params.max_excerpt_chars ?? null);
  return results.map((row) => {
    const shaped: RunResult = {
      ...row,
      snippet: budget.take(perResult !== null ? row.snippet.slice(0, perResult) : row.snippet),
    };
    if (row.highlights) shaped.highlights = budget.takeAll(row.highlights);
    if (row.summary !== undefined) shaped.summary = budget.take(row.summary);
    return shaped;
  });
}

/** `advanced_settings.contents`: text, highlights and summary from the pages the run saw (no extra reads). */
export function withContents(
  results: RunResult[],
  params: DeepSearchParams,
  texts: Map<string, { text: string }>,
): RunResult[] {
  const wanted = params.advanced_settings?.contents;
  if (!wanted || !(wanted.text || wanted.highlights || wanted.summary)) return results;
  const focus = params.objective ?? params.prompt ?? params.queries.join(' ');
  return results.map((row) => {
    const text = texts.get(normalizeUrl(row.url))?.text;
    if (!text) return row;
    return {
      ...row,
      ...(wanted.text && { text: wanted.max_chars ? text.slice(0, wanted.max_chars) : text }),
      ...(wanted.highlights && { highlights: focusExcerpts(text, focus, HIGHLIGHT_CHARS) }),
      // Focused like the highlights: the summary of a page for this run's question, not its opening.
      ...(wanted.summary && { summary: focusExcerpts(text, focus, SUMMARY_CHARS).join(' ') }),
    };
  });
}

/** Deep search runs: the research pipeline with the run's budgets, filters and result shaping. */
@RunExecutorOf(searchRuns)
export class SearchRunExecutor implements RunExecutor<typeof searchRuns> {
  readonly kind = searchRuns;

  constructor(private readonly ports: ResearchPortsFactory) {}

  async execute(run: RunContext<SearchRunState, RecordedCommand<typeof searchRuns>>): Promise<void> {
    if (run.state.status === 'absent') throw new Error(`search run ${run.runId} has no request`);
    // A follow-up researches its queries with the words that refer back named.
    const asked = run.state.params;
    const params = {
      ...asked,
      queries: asked.queries.map((query) => followUpQuestion(query, asked.follows)),
      prompt: asked.prompt === null ? null : followUpQuestion(asked.prompt, asked.follows),
    };
    const ports = this.ports.for({
      objective: params.objective,
      filters: deepFilters(params),
      signal: run.signal,
      teamId: run.state.team_id,
    });
    // With a budget, only the queries it pays for (the completion charge is cut to it all the same).
    const queries = queriesWithinBudget(params);
    const outcome = await runResearch(
      {
        prompt: params.prompt ?? queries.join('; '),
        queries,
        objective: params.objective,
        maxSubqueries: params.max_subqueries,
        maxFetches: params.max_fetches,
        limit: params.limit,
        country: params.country,
        language: params.language,
      },
      ports,
      recordedProgress(run, (results) => shapeSnippets(results, params)),
    );
    if (run.stopped() || outcome.stopped || outcome.report === null) return;
    const final = shapeSnippets(fitTexts(withContents(outcome.results, params, ports.texts)), params);
    await run.record({ type: 'RecordResults', results: final, reranked: outcome.reranked });
    await run.record({
      type: 'RecordReport',
      report: outcome.report,
      findings: outcome.findings,
      sources: outcome.sources,
      usage: outcome.usage,
    });
  }
}
