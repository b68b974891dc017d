import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ExtractReply, ExtractRequest, ExtractResultDto, FetchPageReply, FetchPageRequest } from '@app/contracts';
import { lineItem, totalCredits } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { ExtractionAbandoned, ExtractionWorkers, focusExcerpts } from '@app/extraction';
import { FetchError, type FetchedPage, type FetchOptions, PAGE_FETCHER, type PageFetcher } from '@app/fetch';
import { type ChargeContext, chargeRequest } from '@app/platform';

const EXCERPT_CHARS = 1_500;

/** One URL read: the extraction's result, the page fetched (null when none was) and the fetch's refusal. */
export interface PageRead {
  result: ExtractResultDto;
  page: FetchedPage | null;
  refusal: FetchError | null;
}

/** What reading one URL takes; `render` is passed through for the document readers (auto when absent). */
export type ReadOptions = Pick<ExtractRequest, 'objective' | 'format' | 'full_content' | 'excerpts' | 'max_chars_per_result'> & { render?: 'auto' | 'always' | 'never' };

const failed = (url: string, error: string): ExtractResultDto => ({
  url,
  final_url: null,
  status: null,
  title: null,
  content: null,
  excerpts: [],
  published_date: null,
  language: null,
  error,
});

/**
 * `/v1/extract`: every URL fetched (through the SSRF-guarded, cached fetcher) and extracted
 * concurrently; one bad URL never fails the others. 2 credits per extracted URL, none for a
 * failed one, charged once for the call.
 */
@Injectable()
export class ExtractService {
  private readonly logger = new Logger('ExtractService');

  constructor(
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly workers: ExtractionWorkers,
  ) {}

  async extract(request: ExtractRequest, charge: ChargeContext): Promise<ExtractReply> {
    const { results } = await this.read(request);
    const good = results.filter((result) => result.error === null).length;
    const usage = [lineItem('sku_extract', good)];
    const position = await chargeRequest(this.events, charge, usage);
    return { results, credits: totalCredits(usage), usage, ...(position !== undefined && { position }) };
  }

  /** The same reading without a charge: for services that charge their own SKU (search contents). */
  async read(request: ExtractRequest): Promise<ExtractReply> {
    const fetchOptions: FetchOptions | undefined = request.fresh ? { cache: false } : undefined;
    return { results: await Promise.all(request.urls.map((url) => this.extractOne(url, request, fetchOptions))), credits: 0, usage: [] };
  }

  /** One raw page for a crawler; a refusal comes back as data with the fetch error's code. */
  async fetchPage(request: FetchPageRequest): Promise<FetchPageReply> {
    try {
      return { page: await this.fetcher.fetch(request.url, { respectRobots: request.respect_robots, maxAgeMs: request.max_age_ms }) };
    } catch (error) {
      if (error instanceof FetchError) return { error: { code: error.code, message: error.message, ...(error.status !== undefined && { status: error.status }) } };
      throw error;
    }
  }

  async one(url: string, request: ReadOptions): Promise<ExtractResultDto> {
    return this.extractOne(url, request, undefined);
  }

  /**
   * One URL fetched and extracted as `/v1/extract` does it, with the fetch's own options (a crawl:
   * robots, pacing, no cache); the fetched page comes back too (its links), null when none was.
   */
  async readPage(url: string, request: ReadOptions, fetchOptions?: FetchOptions): Promise<PageRead> {
    const read: PageRead = { result: failed(url, ''), page: null, refusal: null };
    read.result = await this.extractOne(url, request, fetchOptions, read);
    return read;
  }

  private async extractOne(url: string, request: ReadOptions, fetchOptions: FetchOptions | undefined, read?: PageRead): Promise<ExtractResultDto> {
    try {
      const page = await this.fetcher.fetch(url, fetchOptions);
      if (read) read.page = page;
      // On a thread with a deadline: a hostile page is given up, never a stalled event loop.
      const format = request.format ?? 'markdown';
      const document = await this.workers.extract(page.body, { url: page.finalUrl, contentType: page.contentType }, request.full_content && format !== 'text' ? [format] : []);
      const body = request.format === 'html' ? document.html : request.format === 'text' ? document.text : document.markdown;
      if (!document.text.trim()) return failed(url, `${url}: the page has no readable main content`);
      const limit = request.max_chars_per_result ?? undefined;
      return {
        url,
        final_url: page.finalUrl,
        status: page.status,
        title: document.title,
        content: request.full_content ? (limit !== undefined && body.length > limit ? body.slice(0, limit) : body) : null,
        excerpts: request.excerpts ? focusExcerpts(document.text, request.objective ?? undefined, Math.min(limit ?? EXCERPT_CHARS, EXCERPT_CHARS)) : [],
        published_date: document.publishedDate,
        language: document.language,
        error: null,
      };
    } catch (error) {
      if (error instanceof FetchError) {
        if (read) read.refusal = error;
        return failed(url, error.message);
      }
      if (error instanceof ExtractionAbandoned) return failed(url, `${url}: ${error.message}`);
      this.logger.error({ msg: 'extraction failed', url, err: (error as Error).message });
      return failed(url, `${url}: the page could not be extracted`);
    }
  }
}
