import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { BusClient } from '@app/bus';
import {
  callBus,
  type SearchPageReply,
  type SearchPageRequest,
  type SearchReply,
  type SearchRequest,
  type SearchResultRow,
  subjects,
} from '@app/contracts';
import { lineItems, quantityOf, totalCredits } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { focusExcerpts } from '@app/extraction';
import { type ChargeContext, chargeRequest } from '@app/platform';
import { ExtractiveLanguageModel, LANGUAGE_MODEL, type LanguageModel } from '@app/language';
import {
  type SearchHit,
  type SearchPage,
  type SearchProvider,
  type SearchQuery,
  SEARCH_PROVIDER,
} from '@app/providers';
import { type FilterShape, type Filters, postFilter, searchFilters } from './search-filters';
import { type Candidate, capExcerpts, mergeHits, resultRow } from './search-rows';
import { TeamPages } from './team-pages';

const HIGHLIGHT_CHARS = 1_000;
const SUMMARY_CHARS = 400;
const PAGE_CACHE_TTL_MS = 60_000;
/**
 * Provider pages kept for that minute: enough for a client's retries and repeated queries, and a
 * bound on memory under a stream of distinct queries (a page of ten hits is about 10 KB).
 */
const PAGE_CACHE_PAGES = 1_000;

/** What a provider page depends on, for a synchronous search and a deep run's page alike. */
type PageShape = FilterShape & {
  /** The hits' full text is used (re-ranking, focused excerpts, contents, a run's reading). */
  withContent: boolean;
};

/** Whether a search asks for `advanced_settings.contents` (text, highlights or a summary per row). */
const wantsContents = (request: SearchRequest): boolean => {
  const wanted = request.advanced_settings?.contents;
  return Boolean(wanted && (wanted.text || wanted.highlights || wanted.summary));
};

/**
 * Synchronous search (instant, fast, auto). Depths differ in work, not labels:
 * - instant: one provider page per query, snippets only, lexical re-rank;
 * - fast: one provider page per query, the configured language model re-ranks for an objective;
 * - auto: a second page where the first is thin, re-rank, and excerpts focused on the objective
 *   from the page text.
 * Every filter the provider cannot apply itself is applied here, and said in `warnings`. Provider
 * pages are cached for a minute at every depth, so a repeated query costs no provider call.
 */
@Injectable()
export class SearchService {
  private readonly logger = new Logger('SearchService');
  private readonly lexical = new ExtractiveLanguageModel();
  /** Provider pages by query and filters, for a minute; a promise, so concurrent twins share one call. */
  private readonly pages = new LRUCache<string, Promise<SearchPage>>({ max: PAGE_CACHE_PAGES, ttl: PAGE_CACHE_TTL_MS });

  constructor(
    @Inject(SEARCH_PROVIDER) private readonly provider: SearchProvider,
    @Inject(LANGUAGE_MODEL) private readonly model: LanguageModel,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly bus: BusClient,
    private readonly teamPages: TeamPages,
  ) {}

  async search(request: SearchRequest, charge: ChargeContext): Promise<SearchReply> {
    const started = performance.now();
    const warnings: string[] = [];
    const filters = searchFilters(request);
    await this.provider.ready();

    const providerStarted = performance.now();
    const perQuery = await Promise.all(
      request.queries.map((query) => this.gather(query, request, filters, warnings, charge.team_id)),
    );
    const providerMs = performance.now() - providerStarted;

    let candidates = mergeHits(perQuery);
    let dropped = 0;
    let reranked = false;
    const rerankStarted = performance.now();
    if (request.objective) {
      const model = request.depth === 'instant' ? this.lexical : this.model;
      const { results } = await model.rerank(
        request.objective,
        candidates.map((c) => ({ id: c.key, title: c.hit.title, text: c.hit.content ?? c.hit.snippet })),
      );
      const verdicts = new Map(results.map((r) => [r.id, r]));
      const kept = candidates.filter((c) => verdicts.get(c.key)?.relevant !== false);
      dropped = candidates.length - kept.length;
      for (const c of kept) c.score = 0.8 * (verdicts.get(c.key)?.score ?? 0) + 0.2 * c.score;
      candidates = kept;
      reranked = true;
    }
    const rerankMs = request.objective ? performance.now() - rerankStarted : 0;
    candidates.sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
    candidates = candidates.slice(0, request.limit);

    const rows = candidates.map((c) => resultRow(c, request));
    // Contents first: their highlights and summary are excerpts too, so the budget must see them.
    const { rows: contentRows, renders } = await this.contents(rows, candidates, request, warnings);
    capExcerpts(rows, request.max_excerpt_chars);

    const usage = lineItems({
      sku_search: 1,
      sku_objective_rerank: request.objective ? 1 : 0,
      sku_contents_text: contentRows,
      sku_render: renders,
    });
    const position = await chargeRequest(this.events, charge, usage);
    if (dropped > 0)
      warnings.push(`objective: ${dropped} off-topic result${dropped === 1 ? ' was' : 's were'} dropped`);

    return {
      search_id: `search_${randomUUID()}`,
      session_id: request.session_id,
      client_model: request.client_model,
      depth: request.depth,
      queries: request.queries,
      results: rows,
      reranked,
      dropped_off_topic: dropped,
      warnings: [...new Set(warnings)],
      credits: totalCredits(usage),
      usage,
      timing_ms: {
        total: Math.round(performance.now() - started),
        provider: Math.round(providerMs),
        rerank: Math.round(rerankMs),
      },
      ...(position !== undefined && { position }),
    };
  }

  /**
   * One provider page, uncharged: the research pipeline's searches (its run is charged instead).
   * A deep run's filters apply as they do to a synchronous search: natively where the provider
   * can, after the fact otherwise (its warnings say so).
   */
  async providerPage(request: SearchPageRequest): Promise<SearchPageReply> {
    await this.provider.ready();
    const warnings: string[] = [];
    const filters = searchFilters({
      include_domains: request.include_domains ?? null,
      exclude_domains: request.exclude_domains ?? null,
      freshness: request.freshness ?? null,
      advanced_settings: {
        source_policy: { after_date: request.after_date ?? null, before_date: request.before_date ?? null },
      },
    });
    const shape: PageShape = {
      ...request,
      category: request.category ?? null,
      freshness: request.freshness ?? null,
      withContent: true,
    };
    const page = await this.page(request.query, request.page, shape, filters, warnings, request.team_id ?? null, false);
    const hits = postFilter(this.provider.capabilities, page.hits, shape, filters, warnings);
    return {
      hits: hits.map((hit) => ({ ...hit })),
      page: page.page,
      hasMore: page.hasMore,
      warnings: [...new Set(warnings)],
    };
  }

  /** One query's hits: page 1, and for `auto` page 2 when page 1 left fewer than `limit` after filtering. */
  private async gather(
    query: string,
    request: SearchRequest,
    filters: Filters,
    warnings: string[],
    team: string,
  ): Promise<SearchHit[]> {
    // Snippets alone unless the text is used: re-ranking for an objective, auto's focused excerpts, contents.
    const shape: PageShape = {
      ...request,
      withContent: Boolean(request.objective) || request.depth === 'auto' || wantsContents(request),
    };
    const first = await this.page(query, 1, shape, filters, warnings, team);
    let hits = postFilter(this.provider.capabilities, first.hits, request, filters, warnings);
    if (
      request.depth === 'auto' &&
      hits.length < request.limit &&
      first.hasMore &&
      this.provider.capabilities.pagination
    ) {
      const second = await this.page(query, 2, shape, filters, warnings, team);
      hits = hits.concat(postFilter(this.provider.capabilities, second.hits, request, filters, warnings));
    }
    return hits;
  }

  /**
   * One provider page for the query, as `team` sees it: the shared index's results merged with the
   * team's own pages (see TeamPages), or the provider's page alone without a team.
   */
  private async page(
    query: string,
    page: number,
    request: PageShape,
    filters: Filters,
    warnings: string[],
    team: string | null,
    cached = true,
  ): Promise<SearchPage> {
    const caps = this.provider.capabilities;
    const native = (support: 'native' | 'none') => support === 'native';
    const q: SearchQuery = {
      query,
      page,
      limit: request.limit,
      country: request.country,
      language: request.language,
      ...(native(caps.freshness) && request.freshness && { freshness: request.freshness }),
      ...(native(caps.dateRange) && filters.after && { dateFrom: filters.after }),
      ...(native(caps.dateRange) && filters.before && { dateTo: filters.before }),
      ...(native(caps.domainFilter) && filters.include.length > 0 && { includeDomains: filters.include }),
      ...(native(caps.domainFilter) && filters.exclude.length > 0 && { excludeDomains: filters.exclude }),
      ...(native(caps.category) && request.category && { category: request.category }),
      ...(request.withContent && { withContent: true }),
    };
    if (!native(caps.country) && request.country !== 'us') {
      warnings.push(
        `country: the ${this.provider.name} provider cannot restrict results to a country; "${request.country}" was not applied`,
      );
    }
    const own = await this.teamPages.prepare(team);
    const ask = () => own.page(q, (shaped) => this.provider.search(shaped));
    // Runs (deep, tasks, monitors) ask the provider each time: a monitor must see a change at once.
    if (!cached) {
      const fresh = await ask();
      warnings.push(...fresh.warnings);
      return fresh;
    }
    // A repeated query within a minute is answered from the cache; a failed call is not kept. A
    // provider that counts its changes (the local index) keys the cache by that count too, so a
    // page edited in its folder shows at once; another shows after at most the minute. A team's
    // own pages key it by the team and the count of their writes.
    const key = `${this.provider.generation ?? ''}\u0000${own.key}\u0000${JSON.stringify(q)}`;
    let pending = this.pages.get(key);
    if (!pending) {
      pending = ask();
      this.pages.set(key, pending);
      pending.catch(() => this.pages.delete(key));
    }
    const result = await pending;
    warnings.push(...result.warnings);
    return result;
  }

  /**
   * `advanced_settings.contents`: the page's text, highlights and summary on each row, from the
   * provider's full text when it has it, else read through the extraction service. Returns the
   * number of rows given contents (charged as sku_contents_text) and the pages the reading
   * rendered in the browser (sku_render).
   */
  private async contents(
    rows: SearchResultRow[],
    candidates: Candidate[],
    request: SearchRequest,
    warnings: string[],
  ): Promise<{ rows: number; renders: number }> {
    const wanted = request.advanced_settings?.contents;
    if (!wanted || !wantsContents(request) || rows.length === 0) return { rows: 0, renders: 0 };
    let renders = 0;
    const texts = new Map<string, string>();
    const missing = candidates.filter((c) => !c.hit.content).map((c) => c.hit.url);
    for (const c of candidates) if (c.hit.content) texts.set(c.hit.url, c.hit.content);
    if (missing.length > 0) {
      try {
        const read = await callBus(this.bus, subjects.read, {
          urls: missing,
          objective: request.objective,
          format: 'text',
          full_content: true,
          excerpts: false,
          max_chars_per_result: null,
        });
        renders = quantityOf(read.usage, 'sku_render');
        for (const result of read.results) {
          if (result.content) texts.set(result.url, result.content);
          else {
            const row = rows.find((r) => r.url === result.url);
            if (row) row.contents_error = result.error ?? 'no readable content';
          }
        }
      } catch (error) {
        this.logger.warn({ msg: 'contents extraction failed', err: (error as Error).message });
        warnings.push('contents: the extraction service did not answer; rows carry no contents');
        return { rows: 0, renders: 0 };
      }
    }
    const focus = request.objective ?? request.queries.join(' ');
    let given = 0;
    for (const row of rows) {
      const text = texts.get(row.url);
      if (!text) continue;
      given++;
      if (wanted.text) row.text = wanted.max_chars ? text.slice(0, wanted.max_chars) : text;
      if (wanted.highlights) row.highlights = focusExcerpts(text, focus, HIGHLIGHT_CHARS);
      // The summary answers the same question the highlights do: the objective, else the queries.
      if (wanted.summary) row.summary = focusExcerpts(text, focus, SUMMARY_CHARS).join(' ');
    }
    return { rows: given, renders };
  }
}
