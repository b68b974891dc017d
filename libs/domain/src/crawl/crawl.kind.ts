import type { SkuLineItem } from '../charge/charge.events';
import { DomainError } from '../decider';
import { totalCredits } from '../pricing';
import { defineRunKind } from '../run/run-kind';
import { publicStatus, runEndedAt } from '../run/run.decider';
import { RUN_STATUSES } from '../run/run.events';
import { teamStream } from '../team/team.events';
import { CRAWL_STREAM_PREFIX, crawlRunKind, type CrawlPage, type CrawlParams, type CrawlState, type CrawlTermination } from './crawl.decider';

export const CRAWL_RUNS_COLLECTION = 'crawl_runs';

/** A page as the API shows it (its frontier links stay in the log). */
export type CrawlPageView = Pick<CrawlPage, 'url' | 'final_url' | 'title' | 'content' | 'status' | 'depth' | 'error'> & { source_url: string | null };

/** The public crawl run without its pages (list items, webhooks, `run.completed`); GET /v1/crawl/{id} adds a page of them. */
export interface CrawlView extends Omit<CrawlParams, 'webhook'> {
  crawl_id: string;
  status: ReturnType<typeof publicStatus>;
  webhook: string | null;
  counts: { pages: number; read: number; failed: number };
  termination: CrawlTermination | 'cancelled' | 'error' | null;
  credits: number;
  usage: SkuLineItem[];
  error: string | null;
  createdAt: string;
  completedAt: string | null;
}

export function crawlView(state: CrawlState): CrawlView {
  if (state.status === 'absent') throw new DomainError(404, 'crawl run does not exist');
  const { params, progress } = state;
  const status = publicStatus(state);
  const read = progress.pages.filter((page) => page.error === null).length;
  return {
    crawl_id: state.run_id,
    status,
    ...params,
    counts: { pages: progress.pages.length, read, failed: progress.pages.length - read },
    termination: status === 'cancelled' ? 'cancelled' : status === 'failed' ? 'error' : progress.termination,
    credits: totalCredits(state.charged),
    usage: state.charged,
    error: state.status === 'failed' ? state.error : null,
    createdAt: state.requested_at,
    completedAt: runEndedAt(state),
  };
}

export const crawlPageView = ({ url, source_url, final_url, title, content, status, depth, error }: CrawlPage): CrawlPageView => ({
  url,
  source_url: source_url ?? null,
  final_url,
  title,
  content,
  status,
  depth,
  error,
});

/**
 * Crawl runs, worked by the extraction service (the one service that reads user-supplied URLs):
 * `page.fetched` is published as each page is recorded.
 */
export const crawlRuns = defineRunKind(crawlRunKind, {
  name: 'crawl',
  streamPrefix: CRAWL_STREAM_PREFIX,
  idPrefix: 'crawl_',
  noun: 'Crawl run',
  service: 'extraction',
  view: crawlView,
  readModel: { collection: CRAWL_RUNS_COLLECTION, version: 1, listItem: crawlView },
  webhook: { type: 'crawl_run', url: (state) => state.params.webhook, signer: (state) => teamStream(state.team_id) },
  queued: true,
  routes: {
    tag: 'Crawl',
    param: 'crawl_id',
    list: { path: 'v1/crawl', key: 'crawls', defaultLimit: 20, byStatus: RUN_STATUSES },
    // GET /v1/crawl/{id} (with its pages) is the kind's route file's; this is the run without them.
    view: ['v1/crawl/:crawl_id/summary'],
    cancel: 'v1/crawl/:crawl_id/cancel',
    history: 'v1/crawl/:crawl_id/history',
    sse: 'v1/crawl/:crawl_id/events',
    socket: 'v1/crawl/:crawl_id/ws',
  },
  queuedFields: (state) => ({ url: state.params.url }),
  publishProgress(event, state) {
    if (event.type !== 'CrawlPageRead') return undefined;
    const page = event.data as CrawlPage;
    const { content: _c, ...shown } = crawlPageView(page);
    return { event: 'page.fetched', data: { crawl_id: state.run_id, ...shown, pages: state.progress.pages.length } };
  },
});
