import type { CreditsCharged } from '../charge/charge.events';
import { type DomainEvent, Conflict, Invalid } from '../decider';
import { lineItems, totalCredits } from '../pricing';
import { type RunCommand, runDecider, type RunKindSpec } from '../run/run.decider';
import type { RunState } from '../run/run.events';
import { Nullable, type Static, StringEnum, Type } from '../schema';

/**
 * A crawl run (`crawl-<id>`): a site read breadth-first from one start page. Each page read is a
 * fact recorded before the next request (with the links it added to the frontier), so a worker
 * that takes the run over rebuilds the frontier from the log and reads no page twice. Two credits
 * per page read (`sku_crawl_page`, as extract) and one per render in the browser (`sku_render`,
 * charged even when the page could not be read: the browser was used), charged as it is recorded.
 */
export const CRAWL_FORMATS = ['markdown', 'text', 'html'] as const;
export const CRAWL_RENDER = ['auto', 'always', 'never'] as const;
/** Bounds the API states (API.md "Crawl"). */
export const CRAWL_LIMITS = {
  pages: 1_000,
  depth: 10,
  patterns: 20,
  patternChars: 200,
  contentChars: 50_000,
  titleChars: 1_000,
  errorChars: 1_000,
  linksPerPage: 500,
} as const;

export const CrawlParamsSchema = Type.Object({
  url: Type.String(),
  limit: Type.Integer(),
  max_depth: Type.Integer(),
  include_paths: Type.Array(Type.String()),
  exclude_paths: Type.Array(Type.String()),
  include_subdomains: Type.Boolean(),
  format: StringEnum(CRAWL_FORMATS),
  render: StringEnum(CRAWL_RENDER),
  index: Type.Boolean(),
  webhook: Nullable(Type.String()),
  /** The run's own budget in credits (API.md "Budgets"): it never charges past it; absent or null: none. */
  max_credits: Type.Optional(Nullable(Type.Integer())),
});
export type CrawlParams = Static<typeof CrawlParamsSchema>;

/** One page of the crawl: read (error null) or given up on (error says why; not charged). */
export interface CrawlPage {
  /** The page's own address: where the fetch ended after redirects (the address asked for when nothing was fetched). */
  url: string;
  /** The address asked for, when a redirect led elsewhere (null, or absent in older events, when it is `url`). */
  source_url?: string | null;
  final_url: string | null;
  depth: number;
  status: number | null;
  title: string | null;
  content: string | null;
  error: string | null;
  /** The new URLs this page added to the frontier (normalised addresses, depth + 1). */
  links: string[];
  read_at: string;
}

export type CrawlTermination = 'limit_reached' | 'frontier_exhausted';

export interface CrawlCounts {
  /** Pages recorded: read or given up on. */
  pages: number;
  read: number;
  failed: number;
}

export interface CrawlProgress {
  /**
   * The pages recorded, in the order read: the write side's fold (each page once, the limit, the
   * frontier a taking-over worker rebuilds). The read model keeps none (its run document would
   * grow without bound): its pages are documents of their own, and its state only `counts`.
   */
  pages: CrawlPage[];
  counts: CrawlCounts;
  termination: CrawlTermination | null;
}

export type CrawlProgressCommand =
  /** `renders`: times the page was rendered in the browser (absent: none). */
  | ({ type: 'RecordCrawlPage'; worker_id: string; renders?: number } & Omit<CrawlPage, 'read_at'>)
  | { type: 'RecordCrawlEnd'; worker_id: string; reason: CrawlTermination };

export type CrawlPageRead = DomainEvent<'CrawlPageRead', CrawlPage>;
export type CrawlEnded = DomainEvent<'CrawlEnded', { reason: CrawlTermination }>;
export type CrawlProgressEvent = CrawlPageRead | CrawlEnded;
type CrawlDecided = CrawlProgressEvent | CreditsCharged;

export const CRAWL_STREAM_PREFIX = 'crawl-';

const charge = (teamId: string, runId: string, read: boolean, renders: number, at: string): CreditsCharged[] => {
  const items = lineItems({ sku_crawl_page: read ? 1 : 0, sku_render: renders });
  return items.length === 0
    ? []
    : [
        {
          type: 'CreditsCharged',
          data: { team_id: teamId, request_id: runId, items, credits: totalCredits(items), at },
        },
      ];
};

const cut = (text: string | null, chars: number) => (text === null ? null : text.slice(0, chars));

/**
 * A page within the crawl's bounds: its content, title and error cut to their caps, so one page's
 * event, and its read-model document, stays far below any store's document limit (50,000
 * characters are at most 200 KB in UTF-8).
 */
export const boundedPage = <P extends Pick<CrawlPage, 'content' | 'title' | 'error'>>(page: P): P => ({
  ...page,
  content: cut(page.content, CRAWL_LIMITS.contentChars),
  title: cut(page.title, CRAWL_LIMITS.titleChars),
  error: cut(page.error, CRAWL_LIMITS.errorChars),
});

const between = (value: number, low: number, high: number) => Number.isInteger(value) && value >= low && value <= high;

export const crawlRunKind: RunKindSpec<
  'CrawlRun',
  'crawl_id',
  CrawlParams,
  CrawlProgress,
  CrawlProgressCommand,
  CrawlDecided
> = {
  prefix: 'CrawlRun',
  idKey: 'crawl_id',
  noun: 'crawl run',
  maxCredits: (params) => params.max_credits,
  validate(params) {
    if (typeof params.url !== 'string' || !/^https?:\/\//i.test(params.url))
      throw new Invalid('url must be an http(s) URL');
    if (!between(params.limit, 1, CRAWL_LIMITS.pages)) throw new Invalid(`limit must be 1 to ${CRAWL_LIMITS.pages}`);
    if (!between(params.max_depth, 0, CRAWL_LIMITS.depth))
      throw new Invalid(`max_depth must be 0 to ${CRAWL_LIMITS.depth}`);
    for (const field of ['include_paths', 'exclude_paths'] as const) {
      const patterns = params[field];
      if (!Array.isArray(patterns) || patterns.length > CRAWL_LIMITS.patterns)
        throw new Invalid(`${field} holds at most ${CRAWL_LIMITS.patterns} patterns`);
      if (patterns.some((p) => typeof p !== 'string' || p.length < 1 || p.length > CRAWL_LIMITS.patternChars)) {
        throw new Invalid(`${field}: each pattern is 1 to ${CRAWL_LIMITS.patternChars} characters`);
      }
    }
    if (!CRAWL_FORMATS.includes(params.format)) throw new Invalid(`format must be one of ${CRAWL_FORMATS.join(', ')}`);
    if (!CRAWL_RENDER.includes(params.render)) throw new Invalid(`render must be one of ${CRAWL_RENDER.join(', ')}`);
  },
  progressEventTypes: ['CrawlPageRead', 'CrawlEnded'],
  progress: {
    initial: { pages: [], counts: { pages: 0, read: 0, failed: 0 }, termination: null },
    decide(command, run, { now }) {
      const p = run.progress;
      if (command.type === 'RecordCrawlEnd')
        return p.termination ? [] : [{ type: 'CrawlEnded', data: { reason: command.reason } }];
      // Each page once: a redelivered or resumed record decides nothing.
      if (p.pages.some((page) => page.url === command.url)) return [];
      if (p.termination) throw new Conflict('the crawl has ended');
      if (p.pages.length >= run.params.limit) throw new Conflict(`the crawl has read its ${run.params.limit} pages`);
      const { type: _t, worker_id: _w, renders, ...page } = command;
      const read: CrawlPageRead = {
        type: 'CrawlPageRead',
        data: { ...boundedPage(page), links: page.links.slice(0, CRAWL_LIMITS.linksPerPage), read_at: now },
      };
      return [
        read,
        ...charge(run.team_id, run.run_id, page.error === null, Math.max(0, Math.floor(renders ?? 0)), now),
      ];
    },
    evolve(p, event) {
      switch (event.type) {
        case 'CrawlPageRead': {
          if (p.pages.some((page) => page.url === event.data.url)) return p;
          const read = event.data.error === null;
          const counts = {
            pages: p.counts.pages + 1,
            read: p.counts.read + (read ? 1 : 0),
            failed: p.counts.failed + (read ? 0 : 1),
          };
          return { ...p, pages: [...p.pages, event.data], counts };
        }
        case 'CrawlEnded':
          return p.termination ? p : { ...p, termination: event.data.reason };
        default:
          return p;
      }
    },
    // Pages are charged as they are read: nothing more on completion.
    charge(run) {
      if (!run.progress.termination) throw new Conflict('the crawl has not finished its work');
      return [];
    },
  },
};

export type CrawlState = RunState<CrawlParams, CrawlProgress>;
export type CrawlCommand = RunCommand<CrawlParams, CrawlProgressCommand>;
export const crawlDecider = runDecider(crawlRunKind);
