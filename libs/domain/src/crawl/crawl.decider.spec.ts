import type { WithoutWorker } from '../run/run-kind';
import { specFor, testContext } from '../testing/given-when-then';
import {
  crawlDecider,
  type CrawlCommand,
  type CrawlPage,
  type CrawlParams,
  type CrawlProgressCommand,
  CRAWL_LIMITS,
  crawlRunKind,
} from './crawl.decider';
import { crawlRuns, crawlView } from './crawl.kind';

const T0 = '2026-01-01T00:00:00.000Z';
const spec = specFor(crawlDecider, () => testContext(T0));
const params: CrawlParams = {
  url: 'https://docs.test/',
  limit: 2,
  max_depth: 3,
  include_paths: [],
  exclude_paths: [],
  include_subdomains: false,
  format: 'markdown',
  render: 'auto',
  index: false,
  webhook: null,
};
type Ev = { type: string; data: unknown };
const requested: Ev = {
  type: 'CrawlRunRequested',
  data: { crawl_id: 'c1', team_id: 'acme', key_id: 'k1', request_id: 'r1', params, requested_at: T0 },
};
const started: Ev = {
  type: 'CrawlRunStarted',
  data: { worker_id: 'w1', lease_until: '2026-01-01T00:00:15.000Z', started_at: T0, resumed: false },
};
const RUNNING = [requested, started];
const record = (c: WithoutWorker<CrawlProgressCommand>): CrawlCommand => ({ ...c, worker_id: 'w1' });
const page = (url: string, over: Partial<CrawlPage> = {}): Omit<CrawlPage, 'read_at'> => ({
  url,
  final_url: url,
  depth: 0,
  status: 200,
  title: 'T',
  content: 'text',
  error: null,
  links: [],
  ...over,
});
const read = (url: string, over: Partial<CrawlPage> = {}): Ev => ({
  type: 'CrawlPageRead',
  data: { ...page(url, over), read_at: T0 },
});
const charged: Ev = {
  type: 'CreditsCharged',
  data: {
    team_id: 'acme',
    request_id: 'c1',
    items: [{ sku: 'sku_crawl_page', quantity: 1, credits: 2 }],
    credits: 2,
    at: T0,
  },
};

describe('crawl decider', () => {
  it('records a page read and charges it as it is read', () => {
    spec(RUNNING as never)
      .when(record({ type: 'RecordCrawlPage', ...page('https://docs.test/') }))
      .then([read('https://docs.test/'), charged] as never);
  });

  it('charges a page as extract does (2 credits), and each render of it in the browser (sku_render)', () => {
    const both: Ev = {
      type: 'CreditsCharged',
      data: {
        team_id: 'acme',
        request_id: 'c1',
        items: [
          { sku: 'sku_crawl_page', quantity: 1, credits: 2 },
          { sku: 'sku_render', quantity: 1, credits: 1 },
        ],
        credits: 3,
        at: T0,
      },
    };
    spec(RUNNING as never)
      .when(record({ type: 'RecordCrawlPage', ...page('https://docs.test/'), renders: 1 }))
      .then([read('https://docs.test/'), both] as never);
  });

  it('charges the render of a page it could not read (the browser ran to its deadline), not the page', () => {
    const failed = {
      status: 200,
      content: null,
      title: null,
      error: 'rendering did not finish within RENDER_TIMEOUT_MS',
    };
    const render: Ev = {
      type: 'CreditsCharged',
      data: {
        team_id: 'acme',
        request_id: 'c1',
        items: [{ sku: 'sku_render', quantity: 1, credits: 1 }],
        credits: 1,
        at: T0,
      },
    };
    spec(RUNNING as never)
      .when(record({ type: 'RecordCrawlPage', ...page('https://docs.test/x', failed), renders: 1 }))
      .then([read('https://docs.test/x', failed), render] as never);
  });

  it('records a page it could not read without a charge', () => {
    const failed = { status: 404, content: null, title: null, error: 'HTTP 404' };
    spec(RUNNING as never)
      .when(record({ type: 'RecordCrawlPage', ...page('https://docs.test/x', failed) }))
      .then([read('https://docs.test/x', failed)] as never);
  });

  it('records each page once: a resumed or redelivered record decides nothing', () => {
    spec([...RUNNING, read('https://docs.test/'), charged] as never)
      .when(record({ type: 'RecordCrawlPage', ...page('https://docs.test/') }))
      .then([]);
  });

  it('refuses a page past the limit', () => {
    spec([...RUNNING, read('https://docs.test/'), read('https://docs.test/a')] as never)
      .when(record({ type: 'RecordCrawlPage', ...page('https://docs.test/b') }))
      .thenThrows({ refusal: 'conflict', message: /read its 2 pages/ });
  });

  it('bounds what a page stores: its content, title, error and frontier links', () => {
    const big = page('https://docs.test/', {
      content: '中'.repeat(CRAWL_LIMITS.contentChars + 10),
      title: 't'.repeat(CRAWL_LIMITS.titleChars + 10),
      links: Array.from({ length: CRAWL_LIMITS.linksPerPage + 5 }, (_, i) => `https://docs.test/${i}`),
    });
    const events = crawlDecider.decide(
      record({ type: 'RecordCrawlPage', ...big }),
      [requested, started].reduce((s, e) => crawlDecider.evolve(s, e as never), crawlDecider.initialState),
      testContext(T0),
    );
    const data = (events[0] as { data: CrawlPage }).data;
    expect(data.content).toHaveLength(CRAWL_LIMITS.contentChars);
    expect(data.title).toHaveLength(CRAWL_LIMITS.titleChars);
    expect(data.links).toHaveLength(CRAWL_LIMITS.linksPerPage);
    const failed = crawlDecider.decide(
      record({
        type: 'RecordCrawlPage',
        ...page('https://docs.test/x', { content: null, error: 'e'.repeat(CRAWL_LIMITS.errorChars * 2) }),
      }),
      [requested, started].reduce((s, e) => crawlDecider.evolve(s, e as never), crawlDecider.initialState),
      testContext(T0),
    );
    expect((failed[0] as { data: CrawlPage }).data.error).toHaveLength(CRAWL_LIMITS.errorChars);
  });

  it("keeps counts beside the pages, and the kind's read model keeps the counts only (the pages are documents of their own)", () => {
    const events = [
      ...RUNNING,
      read('https://docs.test/'),
      charged,
      read('https://docs.test/x', { status: 404, content: null, error: 'HTTP 404' }),
      read('https://docs.test/'),
    ];
    const state = events.reduce((s, e) => crawlDecider.evolve(s, e as never), crawlDecider.initialState);
    expect(state.status !== 'absent' && state.progress.counts).toEqual({ pages: 2, read: 1, failed: 1 });
    const items = crawlRuns.readModel!.items!;
    const summary = items.summary(state);
    expect(summary.status !== 'absent' && summary.progress).toEqual({
      pages: [],
      counts: { pages: 2, read: 1, failed: 1 },
      termination: null,
    });
    expect(crawlView(summary)).toEqual(crawlView(state));
    expect(items.item(events[2] as never)).toEqual({
      url: 'https://docs.test/',
      source_url: null,
      final_url: 'https://docs.test/',
      depth: 0,
      status: 200,
      title: 'T',
      content: 'text',
      error: null,
    });
  });

  it('completes only once the crawl has ended, with nothing more to charge', () => {
    spec([...RUNNING, read('https://docs.test/'), charged] as never)
      .when({ type: 'CompleteRun', worker_id: 'w1' } as never)
      .thenThrows({ refusal: 'conflict' });
    spec([
      ...RUNNING,
      read('https://docs.test/'),
      charged,
      { type: 'CrawlEnded', data: { reason: 'frontier_exhausted' } },
    ] as never)
      .when({ type: 'CompleteRun', worker_id: 'w1' } as never)
      .then([{ type: 'CrawlRunCompleted', data: { completed_at: T0 } }] as never);
  });

  it.each([
    [{ limit: 0 }, /limit must be 1 to 1000/],
    [{ max_depth: 11 }, /max_depth must be 0 to 10/],
    [{ include_paths: Array(21).fill('a') }, /include_paths holds at most 20/],
    [{ exclude_paths: [''] }, /exclude_paths: each pattern/],
    [{ url: 'ftp://docs.test/' }, /url must be an http/],
  ])('refuses a request out of bounds: %j', (bad, message) => {
    expect(() => crawlRunKind.validate({ ...params, ...bad } as CrawlParams)).toThrow(message);
  });

  it('shows counts and credits in its view, and publishes page.fetched without the content', () => {
    const events = [
      ...RUNNING,
      read('https://docs.test/'),
      charged,
      read('https://docs.test/x', { status: 404, content: null, error: 'HTTP 404' }),
    ];
    const state = events.reduce((s, e) => crawlDecider.evolve(s, e as never), crawlDecider.initialState);
    expect(crawlView(state)).toMatchObject({
      crawl_id: 'c1',
      status: 'running',
      counts: { pages: 2, read: 1, failed: 1 },
      credits: 2,
      termination: null,
    });
    const published = crawlRuns.publish(events[2] as never, state);
    expect(published).toEqual({
      event: 'page.fetched',
      data: {
        crawl_id: 'c1',
        url: 'https://docs.test/',
        source_url: null,
        final_url: 'https://docs.test/',
        title: 'T',
        status: 200,
        depth: 0,
        error: null,
        pages: 2,
      },
    });
  });
});
