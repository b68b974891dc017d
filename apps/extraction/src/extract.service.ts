import { Inject, Injectable, Logger } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import type { ExtractReply, ExtractRequest, ExtractResultDto, FetchPageReply, FetchPageRequest } from '@app/contracts';
import { lineItem, lineItems, totalCredits } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import {
  DocumentUnreadable,
  type ExtractedDocument,
  ExtractionAbandoned,
  ExtractionWorkers,
  focusExcerpts,
  hasRunnableScript,
} from '@app/extraction';
import {
  BrowserRenderer,
  FetchError,
  type FetchedPage,
  type FetchOptions,
  PAGE_FETCHER,
  type PageFetcher,
} from '@app/fetch';
import { type ChargeContext, chargeRequest } from '@app/platform';

const EXCERPT_CHARS = 1_500;
/** `render: auto` renders a page whose extracted text is shorter than this and that has scripts. */
const THIN_TEXT_CHARS = 200;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * One URL read: the extraction's result, the page fetched (null when none was), the fetch's
 * refusal, and the renders it took (each charged `sku_render` by whoever charges the read).
 */
export interface PageRead {
  result: ExtractResultDto;
  page: FetchedPage | null;
  refusal: FetchError | null;
  renders: number;
}

/** Renders started while reading: each one used the browser, whatever came of it (a deadline reached included). */
interface RenderTally {
  renders: number;
}

/** What reading one URL takes (`render`: auto when absent). */
export type ReadOptions = Pick<
  ExtractRequest,
  'objective' | 'format' | 'full_content' | 'excerpts' | 'max_chars_per_result' | 'render'
>;

const failed = (url: string, error: string): ExtractResultDto => ({
  url,
  final_url: null,
  status: null,
  title: null,
  content: null,
  excerpts: [],
  published_date: null,
  language: null,
  content_type: null,
  pages: null,
  error,
});

/**
 * `/v1/extract`: every URL fetched (through the SSRF-guarded, cached fetcher) and extracted
 * concurrently; one bad URL never fails the others. 2 credits per extracted URL, none for a
 * failed one, plus `sku_render` for every page rendered in the browser (a render that ran to its
 * deadline included), charged once for the call.
 */
@Injectable()
export class ExtractService {
  private readonly logger = new Logger('ExtractService');

  constructor(
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly workers: ExtractionWorkers,
    private readonly renderer: BrowserRenderer,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /**
   * `/v1/extract`, bounded as a whole by EXTRACT_CALL_TIMEOUT_MS (the gateway waits that long):
   * a URL not read by then (a slow site, renders waiting their turn) is that URL's error, its
   * fetch aborted; a render it started is still charged.
   */
  async extract(request: ExtractRequest, charge: ChargeContext): Promise<ExtractReply> {
    const tally: RenderTally = { renders: 0 };
    const results = await this.readAll(request, tally, false, this.config.extractCallTimeoutMs);
    const good = results.filter((result) => result.error === null).length;
    const usage = [lineItem('sku_extract', good), ...lineItems({ sku_render: tally.renders })];
    const position = await chargeRequest(this.events, charge, usage);
    return { results, credits: totalCredits(usage), usage, ...(position !== undefined && { position }) };
  }

  /**
   * The same reading without a charge, for services that charge their own SKUs (search contents,
   * research runs, FindAll, page monitors): `usage` and `credits` are what the reading used that
   * the caller must add to its own charge, the renders (`sku_render`); nothing is charged here.
   */
  async read(request: ExtractRequest): Promise<ExtractReply> {
    const tally: RenderTally = { renders: 0 };
    // Each result rendered says so: a run records which of its pages it charges a render for.
    const results = await this.readAll(request, tally, true);
    const usage = lineItems({ sku_render: tally.renders });
    return { results, credits: totalCredits(usage), usage };
  }

  private readAll(
    request: ExtractRequest,
    tally: RenderTally,
    mark = false,
    deadlineMs?: number,
  ): Promise<ExtractResultDto[]> {
    const deadline = deadlineMs === undefined ? undefined : AbortSignal.timeout(deadlineMs);
    const fetchOptions: FetchOptions | undefined =
      request.fresh || deadline
        ? { ...(request.fresh && { cache: false }), ...(deadline && { signal: deadline }) }
        : undefined;
    return Promise.all(
      request.urls.map(async (url) => {
        const own: RenderTally = { renders: 0 };
        const work = this.extractOne(url, request, fetchOptions, undefined, own);
        const result = deadline
          ? await byDeadline(work, deadline, () =>
              failed(url, `${url}: not read within the call's ${deadlineMs! / 1000} s (EXTRACT_CALL_TIMEOUT_MS)`),
            )
          : await work;
        tally.renders += own.renders;
        return mark && own.renders > 0 ? { ...result, rendered: true } : result;
      }),
    );
  }

  /** One raw page for a crawler; a refusal comes back as data with the fetch error's code. */
  async fetchPage(request: FetchPageRequest): Promise<FetchPageReply> {
    try {
      return {
        page: await this.fetcher.fetch(request.url, {
          respectRobots: request.respect_robots,
          maxAgeMs: request.max_age_ms,
        }),
      };
    } catch (error) {
      if (error instanceof FetchError)
        return {
          error: {
            code: error.code,
            message: error.message,
            ...(error.status !== undefined && { status: error.status }),
          },
        };
      throw error;
    }
  }

  /**
   * One URL fetched and extracted as `/v1/extract` does it, with the fetch's own options (a crawl:
   * robots, pacing, no cache); the fetched page comes back too (its links), null when none was.
   */
  async readPage(url: string, request: ReadOptions, fetchOptions?: FetchOptions): Promise<PageRead> {
    const read: PageRead = { result: failed(url, ''), page: null, refusal: null, renders: 0 };
    read.result = await this.extractOne(url, request, fetchOptions, read, read);
    return read;
  }

  private async extractOne(
    url: string,
    request: ReadOptions,
    fetchOptions: FetchOptions | undefined,
    read: PageRead | undefined,
    tally: RenderTally,
  ): Promise<ExtractResultDto> {
    try {
      const page = await this.fetcher.fetch(url, fetchOptions);
      if (read) read.page = page;
      // On a thread with a deadline: a hostile page is given up, never a stalled event loop.
      const format = request.format ?? 'markdown';
      const keep = request.full_content && format !== 'text' ? [format] : [];
      const { document, finalUrl } = await this.readDocument(url, page, request.render ?? 'auto', keep, tally);
      const body =
        request.format === 'html' ? document.html : request.format === 'text' ? document.text : document.markdown;
      if (!document.text.trim()) return failed(url, `${url}: the page has no readable main content`);
      const limit = request.max_chars_per_result ?? undefined;
      return {
        url,
        final_url: finalUrl,
        status: page.status,
        title: document.title,
        content: request.full_content
          ? limit !== undefined && body.length > limit
            ? body.slice(0, limit)
            : body
          : null,
        excerpts: request.excerpts
          ? focusExcerpts(
              document.text,
              request.objective ?? undefined,
              Math.min(limit ?? EXCERPT_CHARS, EXCERPT_CHARS),
            )
          : [],
        published_date: document.publishedDate,
        language: document.language,
        content_type: document.contentType ?? page.contentType,
        pages: document.pages ?? null,
        ...(document.pageStarts && format === 'text' && { page_starts: document.pageStarts }),
        error: null,
      };
    } catch (error) {
      if (error instanceof FetchError) {
        if (read) read.refusal = error;
        return failed(url, error.message);
      }
      if (error instanceof ExtractionAbandoned || error instanceof DocumentUnreadable)
        return failed(url, `${url}: ${error.message}`);
      this.logger.error({ msg: 'extraction failed', url, err: (error as Error).message });
      return failed(url, `${url}: the page could not be extracted`);
    }
  }

  /**
   * The page's document: PDFs and Word files from their bytes; an HTML page as fetched, or as a
   * headless browser has it once its scripts ran (`render`: always; auto when the fetched page
   * reads thin and has scripts; never). Without a browser, auto reads the page as fetched and
   * always is this URL's error.
   */
  private async readDocument(
    url: string,
    page: FetchedPage,
    render: 'auto' | 'always' | 'never',
    keep: Array<'markdown' | 'html'>,
    tally: RenderTally,
  ): Promise<{ document: ExtractedDocument; finalUrl: string }> {
    const options = {
      url: page.finalUrl,
      contentType: page.contentType,
      ...(page.encoding && { encoding: page.encoding }),
    };
    const html = !page.encoding && HTML_TYPES.has(page.contentType);
    if (html && render === 'always') return this.rendered(url, page, keep, tally);
    const document = await this.workers.extract(page.body, options, keep);
    if (!html || render !== 'auto' || !this.renderer.available) return { document, finalUrl: page.finalUrl };
    if (document.text.trim().length >= THIN_TEXT_CHARS || !hasRunnableScript(page.body))
      return { document, finalUrl: page.finalUrl };
    // A thin page with scripts: what the browser shows, when it shows more.
    const rendered = await this.rendered(url, page, keep, tally).catch((error: unknown) => {
      this.logger.warn({ msg: 'rendering failed; the page is read as fetched', url, err: (error as Error).message });
      return null;
    });
    return rendered && rendered.document.text.trim().length > document.text.trim().length
      ? rendered
      : { document, finalUrl: page.finalUrl };
  }

  private async rendered(
    url: string,
    page: FetchedPage,
    keep: Array<'markdown' | 'html'>,
    tally: RenderTally,
  ): Promise<{ document: ExtractedDocument; finalUrl: string }> {
    if (!this.renderer.available) {
      throw new FetchError(
        'unsupported_type',
        url,
        `${url}: render "always" needs a browser and none is available (install one: apt-get install chromium, or set BROWSER_PATH)`,
      );
    }
    // An HTML page fetched moments ago is handed to the browser, not fetched again (its scripts' requests still are, guarded).
    // Counted once the browser takes the page: a render given up at its deadline used it too.
    const view = await this.renderer.render(
      page.finalUrl,
      HTML_TYPES.has(page.contentType) ? { body: page.body, contentType: page.contentType } : undefined,
      {
        started: () => tally.renders++,
      },
    );
    return {
      document: await this.workers.extract(view.html, { url: view.finalUrl, contentType: 'text/html' }, keep),
      finalUrl: view.finalUrl,
    };
  }
}

/** The work's result, or `late()`'s once `deadline` fires first (the work is left to end on its own bounds). */
function byDeadline<T>(work: Promise<T>, deadline: AbortSignal, late: () => T): Promise<T> {
  if (deadline.aborted) return Promise.resolve(late());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => resolve(late());
    deadline.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', onAbort));
  });
}
