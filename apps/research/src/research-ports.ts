import { Injectable, Inject } from '@nestjs/common';
import { BusClient } from '@app/bus';
import { callBus, type RequestOf, subjects } from '@app/contracts';
import type { RunResult } from '@app/domain';
import { LANGUAGE_MODEL, type LanguageModel } from '@app/language';
import { RESEARCH_MODEL, type ResearchModel, type ResearchPorts } from '@app/research';
import { normalizeUrl } from '@app/urls';

/** Filters a run applies to every search page it asks for. */
export type PageFilters = Pick<
  RequestOf<typeof subjects.searchPage>,
  'category' | 'freshness' | 'include_domains' | 'exclude_domains' | 'after_date' | 'before_date'
>;

/**
 * The research pipeline's ports for a run, over the bus: provider pages (`search.page`, uncharged,
 * as the run's team sees them),
 * page reads (`extraction.read`, uncharged), the research model, and the objective re-rank of the
 * configured language model. Page texts seen along the way are kept for the caller
 * (`texts`), so a run can shape its results or fill fields without reading a page twice.
 */
@Injectable()
export class ResearchPortsFactory {
  constructor(
    private readonly bus: BusClient,
    @Inject(RESEARCH_MODEL) private readonly model: ResearchModel,
    @Inject(LANGUAGE_MODEL) private readonly language: LanguageModel,
  ) {}

  get languageModel(): LanguageModel {
    return this.language;
  }

  for(options: {
    objective: string | null;
    filters?: PageFilters;
    signal?: AbortSignal;
    teamId?: string;
  }): ResearchPorts & { texts: Map<string, { url: string; title: string; text: string }> } {
    const texts = new Map<string, { url: string; title: string; text: string }>();
    const keep = (url: string, title: string, text: string | undefined | null) => {
      if (text && text.trim()) texts.set(normalizeUrl(url), { url, title, text });
    };
    return {
      texts,
      model: this.model,
      search: async (query, page, locale) => {
        // The run's team: its own pages (crawls with `index: true`) are searched with the shared index.
        const request: RequestOf<typeof subjects.searchPage> = {
          query,
          page,
          limit: 10,
          country: locale.country,
          language: locale.language,
          ...options.filters,
          team_id: options.teamId ?? null,
        };
        const reply = await callBus(this.bus, subjects.searchPage, request);
        for (const hit of reply.hits) keep(hit.url, hit.title, hit.content);
        return reply;
      },
      read: async (urls) => {
        const reply = await callBus(
          this.bus,
          subjects.read,
          {
            urls,
            objective: options.objective,
            format: 'text',
            full_content: true,
            excerpts: false,
            max_chars_per_result: null,
          },
          { timeoutMs: 60_000 },
        );
        return reply.results.map((r) => {
          keep(r.url, r.title ?? r.url, r.error ? null : r.content);
          return {
            url: r.url,
            title: r.title ?? r.url,
            text: r.content ?? '',
            error: r.error,
            ...(r.page_starts && { pageStarts: r.page_starts }),
            ...(r.rendered && { rendered: true }),
          };
        });
      },
      rerank: async (objective, results) => {
        const { results: verdicts, usage } = await this.language.rerank(
          objective,
          results.map((r) => ({
            id: normalizeUrl(r.url),
            title: r.title,
            text: texts.get(normalizeUrl(r.url))?.text.slice(0, 4_000) ?? r.snippet,
          })),
          options.signal,
        );
        const byId = new Map(verdicts.map((v) => [v.id, v]));
        // Off-topic rows are dropped; the rest are ordered by relevance to the objective (ties keep the merged order).
        const kept: RunResult[] = results
          .filter((r) => byId.get(normalizeUrl(r.url))?.relevant !== false)
          .map((r) => ({
            ...r,
            score: Math.round((0.8 * (byId.get(normalizeUrl(r.url))?.score ?? 0) + 0.2 * r.score) * 10_000) / 10_000,
          }));
        return {
          results: kept
            .map((r, i) => ({ r, i }))
            .sort((a, b) => b.r.score - a.r.score || a.i - b.i)
            .map(({ r }) => r),
          usage,
        };
      },
    };
  }
}
