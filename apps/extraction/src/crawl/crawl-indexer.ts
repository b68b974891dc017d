import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import {
  type CrawlPage,
  crawlRuns,
  DomainError,
  streamOf,
  type TeamPageContentType,
  teamPagesDecider,
  teamPagesStream,
} from '@app/domain';
import { EVENT_STORE, type EventStore, handleCommand } from '@app/eventstore';

/** Events read back from a resumed crawl's end to find the last page it recorded. */
const RECENT_EVENTS = 20;

const CONTENT_TYPES: Record<'markdown' | 'text' | 'html', TeamPageContentType> = {
  markdown: 'text/markdown',
  text: 'text/plain',
  html: 'text/html',
};

/** What became of a page offered to the team's index. */
export type IndexOutcome = { indexed: true } | { indexed: false; refusal: string | null };

/**
 * A crawl with `index: true` adds each page it read to its team's pages: a `TeamPageIndexed` in
 * the team's `teampages-<team>` stream naming the crawl event that holds the page, decided
 * against MAX_INDEXED_PAGES_PER_TEAM. Every search replica follows those streams (nothing durable
 * goes over the bus).
 */
@Injectable()
export class CrawlIndexer {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async add(
    run: { crawlId: string; teamId: string; workerId: string },
    page: { url: string; format: keyof typeof CONTENT_TYPES; revision: bigint },
  ): Promise<IndexOutcome> {
    try {
      const result = await handleCommand(
        this.events,
        teamPagesStream(run.teamId),
        teamPagesDecider,
        {
          type: 'IndexTeamPage',
          max_pages: this.config.maxIndexedPagesPerTeam,
          team_id: run.teamId,
          crawl_id: run.crawlId,
          url: page.url,
          content_type: CONTENT_TYPES[page.format],
          page_revision: String(page.revision),
        },
        // Every crawl of a busy team appends here: more tries than the default before giving up a page.
        { metadata: { team_id: run.teamId, correlation_id: run.crawlId, causation_id: run.workerId }, maxAttempts: 10 },
      );
      return result.events.length > 0 ? { indexed: true } : { indexed: false, refusal: null };
    } catch (error) {
      if (error instanceof DomainError) return { indexed: false, refusal: error.message };
      throw error;
    }
  }

  /**
   * A crawl taken over: the previous worker may have recorded its last page and died before
   * indexing it. That page is offered again (a page already indexed decides nothing).
   */
  async resume(
    run: { crawlId: string; teamId: string; workerId: string },
    format: keyof typeof CONTENT_TYPES,
  ): Promise<IndexOutcome | null> {
    const recent = await this.events.readStream(streamOf(crawlRuns, run.crawlId), {
      direction: 'backwards',
      maxCount: RECENT_EVENTS,
    });
    const last = recent.find((event) => event.type === 'CrawlPageRead');
    const page = last?.data as CrawlPage | undefined;
    if (!last || !page || page.error !== null || !page.content) return null;
    return this.add(run, { url: page.final_url ?? page.url, format, revision: last.revision });
  }
}
