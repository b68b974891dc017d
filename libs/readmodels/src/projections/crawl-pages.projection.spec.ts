import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BSON } from 'mongodb';
import {
  CRAWL_LIMITS,
  CRAWL_PAGES_COLLECTION,
  CRAWL_RUNS_COLLECTION,
  type CrawlParams,
  crawlRuns,
  type CrawlState,
} from '@app/domain';
import { openSqliteEventStore, type SqliteEventStore } from '../../../eventstore/src/sqlite.event-store';
import { DEAD_LETTERS } from '../dead-letters';
import { MemoryReadStore } from '../memory.read-store';
import { Projector } from '../projector';
import { ReadModelSnapshots } from '../snapshots';
import { platformProjections } from './index';
import { runItemId } from './runs.projection';

const T0 = '2026-01-01T00:00:00.000Z';
const params: CrawlParams = {
  url: 'https://docs.test/',
  limit: 1_000,
  max_depth: 3,
  include_paths: [],
  exclude_paths: [],
  include_subdomains: false,
  format: 'markdown',
  render: 'auto',
  index: false,
  webhook: null,
};
const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };
const ev = (type: string, data: Record<string, unknown>) => ({ id: randomUUID(), type, data });
/** 50,000 Chinese characters: 150 KB in UTF-8, so 120 pages pass 16 MiB together. */
const text = (n: number) =>
  (`第${n}页` + '中文网页内容'.repeat(CRAWL_LIMITS.contentChars / 6)).slice(0, CRAWL_LIMITS.contentChars);

/**
 * A crawl's pages in the read model: one document per page in their own collection, the run's
 * document with counts only, so no write grows with the crawl (a crawl of 120 pages of 50,000
 * Chinese characters would otherwise be one document over MongoDB's 16 MiB).
 */
describe('crawl pages read model', () => {
  let dir: string;
  let events: SqliteEventStore;
  const PAGES = 120;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crawl-pages-'));
    events = openSqliteEventStore(join(dir, 'events.db'));
    await events.append(
      'crawl-c1',
      [
        ev('CrawlRunRequested', {
          crawl_id: 'c1',
          team_id: 'acme',
          key_id: 'k1',
          request_id: 'r1',
          params,
          requested_at: T0,
        }),
        ev('CrawlRunStarted', { worker_id: 'w1', lease_until: T0, started_at: T0, resumed: false }),
      ],
      'no_stream',
    );
    for (let n = 0; n < PAGES; n++) {
      const failed = n % 10 === 9;
      const page = {
        url: `https://docs.test/${n}`,
        final_url: `https://docs.test/${n}`,
        depth: n === 0 ? 0 : 1,
        status: failed ? 404 : 200,
        title: `Page ${n}`,
        content: failed ? null : text(n),
        error: failed ? 'HTTP 404' : null,
        links: n === 0 ? [`https://docs.test/1`] : [],
        read_at: T0,
      };
      const charge = ev('CreditsCharged', {
        team_id: 'acme',
        request_id: 'c1',
        items: [{ sku: 'sku_crawl_page', quantity: 1, credits: 1 }],
        credits: 1,
        at: T0,
      });
      await events.append(
        'crawl-c1',
        failed ? [ev('CrawlPageRead', page)] : [ev('CrawlPageRead', page), charge],
        'any',
      );
    }
    await events.append(
      'crawl-c1',
      [ev('CrawlEnded', { reason: 'frontier_exhausted' }), ev('CrawlRunCompleted', { completed_at: T0 })],
      'any',
    );
  });
  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const project = async (reads: MemoryReadStore) => {
    const projector = new Projector(events, reads, platformProjections(), { logger: silent, retryDelayMs: 60_000 });
    await projector.start();
    await projector.caughtUp();
    return projector;
  };
  const pagesOf = (reads: MemoryReadStore, offset: number, limit: number) =>
    reads.find(CRAWL_PAGES_COLLECTION, { run_id: 'c1' }, { sort: { seq: 1 }, skip: offset, limit });

  it('keeps one document per page, in the order read, and the run with its counts only', async () => {
    const reads = new MemoryReadStore();
    const projector = await project(reads);
    expect(projector.deadLetters).toBe(0);
    expect(await reads.count(DEAD_LETTERS)).toBe(0);

    const run = await reads.get(CRAWL_RUNS_COLLECTION, 'c1');
    const state = run!.state as CrawlState;
    expect(run).toMatchObject({ team_id: 'acme', status: 'completed' });
    expect(crawlRuns.view(state)).toMatchObject({
      status: 'completed',
      counts: { pages: PAGES, read: 108, failed: 12 },
      credits: 108,
      termination: 'frontier_exhausted',
    });
    expect(state.status !== 'absent' && state.progress.pages).toEqual([]);
    expect(BSON.calculateObjectSize(run!)).toBeLessThan(64 * 1024);

    expect(await reads.count(CRAWL_PAGES_COLLECTION, { run_id: 'c1' })).toBe(PAGES);
    const second = await pagesOf(reads, 100, 50);
    expect(second.map((p) => p.url)).toEqual(Array.from({ length: 20 }, (_, i) => `https://docs.test/${100 + i}`));
    const [first] = await pagesOf(reads, 0, 1);
    expect(first).toMatchObject({
      _id: runItemId('c1', first!.seq as number),
      run_id: 'c1',
      url: 'https://docs.test/0',
      final_url: 'https://docs.test/0',
      title: 'Page 0',
      status: 200,
      depth: 0,
      error: null,
    });
    expect(first!.content === text(0)).toBe(true);
    // The frontier's links stay in the log.
    expect(first).not.toHaveProperty('links');
    await projector.stop();
  });

  it('survives a snapshot and a rebuild alike', async () => {
    const reads = new MemoryReadStore();
    const projector = await project(reads);
    const snapshots = new ReadModelSnapshots(join(dir, 'readmodels.snapshot'), events, reads);
    await snapshots.save(projector.position);
    await projector.stop();

    const restored = new MemoryReadStore();
    expect((await new ReadModelSnapshots(join(dir, 'readmodels.snapshot'), events, restored).restore()).restored).toBe(
      true,
    );
    const again = await project(restored);
    expect(await restored.find(CRAWL_PAGES_COLLECTION, {}, { sort: { seq: 1 } })).toEqual(
      await reads.find(CRAWL_PAGES_COLLECTION, {}, { sort: { seq: 1 } }),
    );
    expect(await restored.get(CRAWL_RUNS_COLLECTION, 'c1')).toEqual(await reads.get(CRAWL_RUNS_COLLECTION, 'c1'));

    await again.rebuild();
    expect(await pagesOf(restored, 0, 1_000)).toEqual(await pagesOf(reads, 0, 1_000));
    expect(await restored.get(CRAWL_RUNS_COLLECTION, 'c1')).toEqual(await reads.get(CRAWL_RUNS_COLLECTION, 'c1'));
    await again.stop();
  });
});
