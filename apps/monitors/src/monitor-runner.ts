import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { BusClient } from '@app/bus';
import { callBus, subjects } from '@app/contracts';
import {
  type MonitorEvent,
  monitorEvent,
  type MonitorRecord,
  pageMonitorEvent,
  pageText,
  quantityOf,
} from '@app/domain';
import { LANGUAGE_MODEL, type LanguageModel } from '@app/language';
import { domainOf, normalizeUrl } from '@app/urls';

/** A page monitor compares (and keeps) at most this much of the page's main content. */
const PAGE_CHARS = 100_000;

/**
 * One monitor run: search the query (its country and language), keep the rows where the
 * filter_prompt holds, compare with the previous run. A search or filter that fails is an event
 * with status `error` and the reason, never a silent gap.
 */
/** A run that could not search or read (or was refused for its key's budget): status `error` and why. */
export const failedRun = (
  monitor: MonitorRecord,
  eventId: string,
  slotsCovered: number,
  ranAt: string,
  error: string,
): MonitorEvent => ({
  event_id: eventId,
  monitor_id: monitor.monitor_id,
  ran_at: ranAt,
  status: 'error',
  mode: monitor.settings.mode,
  results_count: 0,
  results: [],
  added: [],
  removed: [],
  matched: null,
  error,
  slots_covered: slotsCovered,
});

@Injectable()
export class MonitorRunner {
  constructor(
    private readonly bus: BusClient,
    @Inject(LANGUAGE_MODEL) private readonly model: LanguageModel,
  ) {}

  /** The run's event, and the pages it rendered in the browser (`sku_render`, charged with the run). */
  async run(
    monitor: MonitorRecord,
    eventId: string,
    slotsCovered: number,
    ranAt: string,
  ): Promise<{ event: MonitorEvent; renders: number }> {
    const { settings } = monitor;
    const failed = (error: string) => failedRun(monitor, eventId, slotsCovered, ranAt, error);
    if (settings.url) return this.runPage(monitor, settings.url, eventId, slotsCovered, ranAt, failed);
    return { event: await this.runQuery(monitor, eventId, slotsCovered, ranAt, failed), renders: 0 };
  }

  private async runQuery(
    monitor: MonitorRecord,
    eventId: string,
    slotsCovered: number,
    ranAt: string,
    failed: (error: string) => MonitorEvent,
  ): Promise<MonitorEvent> {
    const { settings } = monitor;
    let rows;
    try {
      const page = await callBus(this.bus, subjects.searchPage, {
        query: settings.query,
        page: 1,
        limit: 10,
        country: settings.country,
        language: settings.language,
        team_id: monitor.team_id,
      });
      rows = page.hits.map((hit) => ({
        url: hit.url,
        title: hit.title,
        snippet: hit.snippet,
        date: hit.date,
        domain: domainOf(hit.url),
        score: hit.score,
      }));
    } catch (error) {
      return failed(`search failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    let kept: boolean[] | null = null;
    if (settings.filter_prompt) {
      try {
        const verdicts = await this.model.filterRows(settings.filter_prompt, rows);
        if (verdicts.kept === null) return failed(verdicts.note ?? 'filter_prompt could not be evaluated');
        kept = verdicts.kept;
      } catch (error) {
        return failed(`filter_prompt failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return monitorEvent({
      event_id: eventId,
      monitor_id: monitor.monitor_id,
      ran_at: ranAt,
      mode: settings.mode,
      rows,
      previous: monitor.last_results,
      kept,
      slots_covered: slotsCovered,
      key: normalizeUrl,
    });
  }

  /**
   * A page monitor's run: the page read live (no page cache) through the extraction service, its
   * main content (markdown: markup, scripts and styles never reach it) compared line by line with
   * the previous run's. A page that does not answer, or has no readable content, is an error event.
   */
  private async runPage(
    monitor: MonitorRecord,
    url: string,
    eventId: string,
    slotsCovered: number,
    ranAt: string,
    failed: (error: string) => MonitorEvent,
  ): Promise<{ event: MonitorEvent; renders: number }> {
    let result;
    let renders = 0;
    try {
      const reply = await callBus(this.bus, subjects.read, {
        urls: [url],
        objective: null,
        format: 'markdown',
        full_content: true,
        excerpts: false,
        max_chars_per_result: PAGE_CHARS,
        fresh: true,
      });
      result = reply.results[0];
      renders = quantityOf(reply.usage, 'sku_render');
    } catch (error) {
      return { event: failed(`page read failed: ${error instanceof Error ? error.message : String(error)}`), renders };
    }
    if (!result || result.error !== null || result.content === null)
      return { event: failed(result?.error ?? `${url}: no answer`), renders };
    const content = pageText(result.content);
    const event = pageMonitorEvent({
      event_id: eventId,
      monitor_id: monitor.monitor_id,
      ran_at: ranAt,
      mode: monitor.settings.mode,
      url: result.final_url ?? url,
      title: result.title ?? url,
      domain: domainOf(result.final_url ?? url),
      content,
      content_hash: createHash('sha256').update(content).digest('hex'),
      previous: monitor.last_content,
      slots_covered: slotsCovered,
    });
    return { event, renders };
  }
}
