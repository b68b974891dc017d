import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  type CrawlPage,
  crawlRuns,
  streamOf,
  TEAM_PAGES_STREAM_PREFIX,
  type TeamPagesEvent,
  teamPagesStream,
} from '@app/domain';
import { EVENT_STORE, type EventStore, type Follower, followAll, type RecordedEvent } from '@app/eventstore';
import { extractAny } from '@app/extraction';
import { SEARCH_PROVIDER, type SearchPage, type SearchProvider, type SearchQuery } from '@app/providers';
import { LocalSearchProvider, mergePages, TeamIndexes, type TeamPageRef, type TeamPageText } from '@app/search-engine';

/** How long a team's search waits for this replica to apply what its stream already holds. */
const CATCH_UP_WAIT_MS = 2_000;
/** The local engine reads at most this many results in one page. */
const MAX_MERGED = 100;

/**
 * The pages a team's crawls indexed, as this search replica holds them: a projection of the
 * `teampages-<team>` streams into one side index per team (`TeamIndexes`, beside the shared
 * index, in this replica's own index folder), followed from the log from the start at boot and
 * live after. Each event names the crawl event that holds the page, which is read from the log.
 * Every replica follows the same log, so all answer alike, and a restart finds its files and
 * resumes after the last revision they applied.
 *
 * A team's search first waits (briefly) until this replica has applied its stream as it stands,
 * so a page indexed or removed before the search shows (or is gone) in the answer whichever
 * replica gives it. Only with the local provider: the team's hits are merged into its results.
 */
@Injectable()
export class TeamPages implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TeamPages');
  private indexes: TeamIndexes | undefined;
  private follower: Follower | undefined;
  /** Revisions given up on (an event that failed every try): a search does not wait for them. */
  private readonly setAside = new Map<string, bigint>();
  private readonly waiters = new Set<() => void>();

  constructor(
    @Inject(SEARCH_PROVIDER) private readonly provider: SearchProvider,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  onApplicationBootstrap(): void {
    if (!(this.provider instanceof LocalSearchProvider)) return;
    this.indexes = new TeamIndexes({
      dir: this.provider.teamDir,
      read: (ref) => this.readPage(ref),
      extract: extractAny,
    });
    // From the start of the log: events a team's files already applied are skipped by revision.
    this.follower = followAll(this.events, (event) => this.apply(event), {
      filter: { streamPrefixes: [TEAM_PAGES_STREAM_PREFIX] },
      attemptsPerEvent: 5,
      onSetAside: (event, error) => {
        const team = event.stream.slice(TEAM_PAGES_STREAM_PREFIX.length);
        this.setAside.set(team, event.revision);
        this.logger.error({
          msg: 'team page event set aside',
          stream: event.stream,
          revision: String(event.revision),
          err: String(error),
        });
        this.wake();
      },
      onDrop: (error) =>
        this.logger.warn({ msg: 'team pages subscription dropped; resubscribing', err: String(error) }),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower?.stop();
    this.indexes?.close();
  }

  /**
   * One page of results for the query as `team` sees them: the shared provider's page (`shared`),
   * merged with the team's own pages when it holds any. `key` is what a cached answer depends on.
   */
  async prepare(team: string | null | undefined): Promise<{
    key: string;
    page: (query: SearchQuery, shared: (query: SearchQuery) => Promise<SearchPage>) => Promise<SearchPage>;
  }> {
    const indexes = this.indexes;
    const plain = {
      key: '',
      page: (query: SearchQuery, shared: (q: SearchQuery) => Promise<SearchPage>) => shared(query),
    };
    if (!team || !indexes) return plain;
    await this.caughtUp(team);
    if (indexes.size(team) === 0) return plain;
    return {
      key: `${team}\u0000${indexes.generation(team)}`,
      page: async (query, shared) => {
        const page = query.page ?? 1;
        const limit = query.limit ?? 10;
        // The first `page * limit` of each, merged, then cut; past what one read gives, page by page.
        const whole = page * limit <= MAX_MERGED;
        const probe = whole ? { ...query, page: 1, limit: page * limit } : query;
        const own = indexes.search(team, probe);
        if (!own || own.hits.length === 0) return shared(query);
        return mergePages(await shared(probe), own, whole ? page : 1, limit);
      },
    };
  }

  private async apply(recorded: RecordedEvent): Promise<void> {
    const indexes = this.indexes!;
    const team = recorded.stream.slice(TEAM_PAGES_STREAM_PREFIX.length);
    const event = { type: recorded.type, data: recorded.data } as TeamPagesEvent;
    if (event.type === 'TeamPageIndexed') {
      const { crawl_id, url, page_revision, content_type } = event.data;
      await indexes.index(team, recorded.revision, {
        crawlId: crawl_id,
        url,
        pageRevision: page_revision,
        contentType: content_type,
      });
    } else if (event.type === 'TeamCrawlPagesRemoved') {
      const removed = await indexes.removeCrawl(team, recorded.revision, event.data.crawl_id);
      this.logger.log({
        msg: 'crawl pages removed from the team index',
        team_id: team,
        crawl_id: event.data.crawl_id,
        removed,
      });
    }
    this.wake();
  }

  /** The crawl page an index event names, from the crawl's stream (its content as recorded, capped there). */
  private async readPage(ref: TeamPageRef): Promise<TeamPageText | null> {
    const [event] = await this.events.readStream(streamOf(crawlRuns, ref.crawlId), {
      fromRevision: BigInt(ref.pageRevision),
      maxCount: 1,
    });
    if (!event || event.type !== 'CrawlPageRead') return null;
    const page = event.data as unknown as CrawlPage;
    if (!page.content) return null;
    return { url: ref.url, title: page.title, content: page.content, contentType: ref.contentType };
  }

  /** Waits (bounded) until this replica has applied the team's stream as the log holds it now. */
  private async caughtUp(team: string): Promise<void> {
    const current = await this.events.streamRevision(teamPagesStream(team));
    if (current === undefined) return;
    const done = () => this.indexes!.applied(team) >= current || (this.setAside.get(team) ?? -1n) >= current;
    if (done()) return;
    const deadline = Date.now() + CATCH_UP_WAIT_MS;
    while (!done() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, Math.max(1, deadline - Date.now()));
        function finish() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(finish);
      });
    }
    if (!done())
      this.logger.warn({
        msg: 'team pages not caught up; answering with what is applied',
        team_id: team,
        revision: String(current),
      });
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}
