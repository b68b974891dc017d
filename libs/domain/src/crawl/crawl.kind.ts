import { SkuLineItemSchema } from '../charge/charge.events';
import { isEventOf, NotFound } from '../decider';
import { totalCredits } from '../pricing';
import { defineRunKind } from '../run/run-kind';
import { publicStatus, runEndedAt } from '../run/run.decider';
import { terminationOf } from '../run/run-budget';
import { RUN_STATUSES } from '../run/run.events';
import { Nullable, type Static, StringEnum, Type } from '../schema';
import { teamStream } from '../team/team.events';
import {
  boundedPage,
  CRAWL_STREAM_PREFIX,
  crawlRunKind,
  type CrawlPage,
  type CrawlPageRead,
  CrawlParamsSchema,
  type CrawlState,
} from './crawl.decider';

export const CRAWL_RUNS_COLLECTION = 'crawl_runs';
/** A crawl's pages in the read model: one document per page (the run's document keeps counts). */
export const CRAWL_PAGES_COLLECTION = 'crawl_pages';

/** A page as the API shows it (its frontier links stay in the log). */
export const CrawlPageViewSchema = Type.Object(
  {
    url: Type.String({ description: "The page's own address: where the fetch ended after redirects" }),
    source_url: Nullable(Type.String({ description: 'The address asked for, when a redirect led elsewhere' })),
    final_url: Nullable(Type.String()),
    title: Nullable(Type.String()),
    content: Nullable(Type.String()),
    status: Nullable(Type.Integer()),
    depth: Type.Integer(),
    error: Nullable(Type.String()),
  },
  { $id: 'CrawlPage' },
);
export type CrawlPageView = Static<typeof CrawlPageViewSchema>;

/** The public crawl run without its pages (list items, webhooks, `run.completed`); GET /v1/crawl/{id} adds a page of them. */
export const CrawlViewSchema = Type.Composite(
  [
    Type.Object({ crawl_id: Type.String(), status: StringEnum(RUN_STATUSES) }),
    CrawlParamsSchema,
    Type.Object({
      counts: Type.Object({ pages: Type.Integer(), read: Type.Integer(), failed: Type.Integer() }),
      termination: Nullable(
        StringEnum(['limit_reached', 'frontier_exhausted', 'budget_exhausted', 'cancelled', 'error']),
      ),
      credits: Type.Number(),
      usage: Type.Array(SkuLineItemSchema),
      error: Nullable(Type.String()),
      createdAt: Type.String(),
      completedAt: Nullable(Type.String()),
    }),
  ],
  { $id: 'CrawlRun' },
);
export type CrawlView = Static<typeof CrawlViewSchema>;

export function crawlView(state: CrawlState): CrawlView {
  if (state.status === 'absent') throw new NotFound('crawl run does not exist');
  const { params, progress } = state;
  const status = publicStatus(state);
  return {
    crawl_id: state.run_id,
    status,
    ...params,
    counts: { ...progress.counts },
    termination:
      status === 'cancelled'
        ? 'cancelled'
        : status === 'failed'
          ? 'error'
          : (terminationOf(state) ?? progress.termination),
    credits: totalCredits(state.charged),
    usage: state.charged,
    error: state.status === 'failed' ? state.error : null,
    createdAt: state.requested_at,
    completedAt: runEndedAt(state),
  };
}

export const crawlPageView = ({
  url,
  source_url,
  final_url,
  title,
  content,
  status,
  depth,
  error,
}: Omit<CrawlPageView, 'source_url'> & Pick<CrawlPage, 'source_url'>): CrawlPageView =>
  boundedPage({ url, source_url: source_url ?? null, final_url, title, content, status, depth, error });

/**
 * Crawl runs, worked by the extraction service (the one service that reads user-supplied URLs):
 * `page.fetched` is published as each page is recorded.
 */
/** The crawl's page events, narrowed from the stored events the read side sees. */
const isPageRead = isEventOf<CrawlPageRead>();

export const crawlRuns = defineRunKind(crawlRunKind, {
  name: 'crawl',
  streamPrefix: CRAWL_STREAM_PREFIX,
  idPrefix: 'crawl_',
  noun: 'Crawl run',
  service: 'extraction',
  view: crawlView,
  // v2: the pages left the run's document for CRAWL_PAGES_COLLECTION.
  readModel: {
    collection: CRAWL_RUNS_COLLECTION,
    version: 2,
    listItem: crawlView,
    items: {
      collection: CRAWL_PAGES_COLLECTION,
      eventType: 'CrawlPageRead',
      item: (event) => {
        if (!isPageRead(event, 'CrawlPageRead')) throw new Error(`not a page: ${event.type}`);
        return crawlPageView(event.data);
      },
      summary: (state) =>
        state.status === 'absent' || state.progress.pages.length === 0
          ? state
          : { ...state, progress: { ...state.progress, pages: [] } },
    },
  },
  webhook: { type: 'crawl_run', url: (state) => state.params.webhook, signer: (state) => teamStream(state.team_id) },
  queued: true,
  queuedFields: (state) => ({ url: state.params.url }),
  publishProgress(event, state) {
    if (!isPageRead(event, 'CrawlPageRead')) return undefined;
    const { content: _c, ...shown } = crawlPageView(event.data);
    return { event: 'page.fetched', data: { crawl_id: state.run_id, ...shown, pages: state.progress.counts.pages } };
  },
});
