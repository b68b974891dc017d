import type { Config } from '@app/config';
import { teamPagesStream } from '@app/domain';
import { SqliteEventStore } from '@app/eventstore';
import { CrawlIndexer } from './crawl-indexer';

const run = { crawlId: 'crawl_1', teamId: 'team-a', workerId: 'w1' };
const pageRead = (url: string, content: string | null, error: string | null = null) => ({
  id: crypto.randomUUID(),
  type: 'CrawlPageRead',
  data: {
    url,
    final_url: url,
    depth: 0,
    status: 200,
    title: 'T',
    content,
    error,
    links: [],
    read_at: '2026-01-01T00:00:00.000Z',
  },
});

describe('CrawlIndexer', () => {
  let events: SqliteEventStore;
  let indexer: CrawlIndexer;
  beforeEach(() => {
    events = new SqliteEventStore(':memory:');
    indexer = new CrawlIndexer(events, { maxIndexedPagesPerTeam: 2 } as Config);
  });
  afterEach(() => events.close());

  const indexed = async () => (await events.readStream(teamPagesStream('team-a'))).map((e) => e.data);

  it("records each page in the team's stream, naming the crawl event that holds it; past the cap, a refusal naming the bound", async () => {
    expect(await indexer.add(run, { url: 'https://a.test/1', format: 'markdown', revision: 3n })).toEqual({
      indexed: true,
    });
    expect(await indexer.add(run, { url: 'https://a.test/1', format: 'markdown', revision: 3n })).toEqual({
      indexed: false,
      refusal: null,
    });
    expect(await indexer.add(run, { url: 'https://a.test/2', format: 'html', revision: 5n })).toEqual({
      indexed: true,
    });
    const refused = await indexer.add(run, { url: 'https://a.test/3', format: 'markdown', revision: 7n });
    expect(refused).toEqual({
      indexed: false,
      refusal: expect.stringMatching(/at most 2 pages \(MAX_INDEXED_PAGES_PER_TEAM\)/),
    });
    expect(await indexed()).toEqual([
      {
        team_id: 'team-a',
        crawl_id: 'crawl_1',
        url: 'https://a.test/1',
        content_type: 'text/markdown',
        page_revision: '3',
      },
      {
        team_id: 'team-a',
        crawl_id: 'crawl_1',
        url: 'https://a.test/2',
        content_type: 'text/html',
        page_revision: '5',
      },
    ]);
  });

  it('a resumed crawl offers the last page its previous worker recorded (once), skipping a failed one', async () => {
    await events.append(
      'crawl-crawl_1',
      [
        pageRead('https://a.test/1', 'one'),
        pageRead('https://a.test/2', 'two'),
        { id: crypto.randomUUID(), type: 'RunHeartbeat', data: {} },
      ],
      'no_stream',
    );
    expect(await indexer.resume(run, 'markdown')).toEqual({ indexed: true });
    expect(await indexer.resume(run, 'markdown')).toEqual({ indexed: false, refusal: null });
    expect((await indexed()).map((e) => [e.url, e.page_revision])).toEqual([['https://a.test/2', '1']]);
    await events.append('crawl-crawl_1', [pageRead('https://a.test/3', null, 'HTTP 500')], 2n);
    expect(await indexer.resume(run, 'markdown')).toBeNull();
  });
});
