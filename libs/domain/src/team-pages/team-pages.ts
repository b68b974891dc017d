import { type Decider, type DomainEvent, Conflict } from '../decider';

/**
 * A team's own pages in the search index (`teampages-<team>`): the pages its crawls with
 * `index: true` added, and the crawls it took out again. The log is the index's source of truth:
 * every search replica follows these streams and projects them into the team's side index, so each
 * answers alike and a restart loses nothing. An event names the crawl page it indexes (the crawl
 * stream's `CrawlPageRead` at `page_revision`, which holds the page's capped content) instead of
 * copying it, so the stream stays small and a fold of it cheap.
 *
 * Bounded per team (`max_pages`, MAX_INDEXED_PAGES_PER_TEAM), decided here at the expected
 * revision, so two crawls of a team on two replicas can never both take the last place. Pages are
 * counted per crawl: a URL two crawls indexed counts twice until one of them is removed.
 */
export const TEAM_PAGES_STREAM_PREFIX = 'teampages-';
export const teamPagesStream = (teamId: string): string => `${TEAM_PAGES_STREAM_PREFIX}${teamId}`;

export const TEAM_PAGE_CONTENT_TYPES = ['text/markdown', 'text/plain', 'text/html'] as const;
export type TeamPageContentType = (typeof TEAM_PAGE_CONTENT_TYPES)[number];

export interface TeamPageIndexedData {
  team_id: string;
  crawl_id: string;
  /** The address the page is indexed under (where it was read from, after redirects). */
  url: string;
  content_type: TeamPageContentType;
  /** Revision (decimal) of the crawl stream's `CrawlPageRead` that holds the page. */
  page_revision: string;
}

export type TeamPageIndexed = DomainEvent<'TeamPageIndexed', TeamPageIndexedData>;
export type TeamCrawlPagesRemoved = DomainEvent<
  'TeamCrawlPagesRemoved',
  { team_id: string; crawl_id: string; removed: number }
>;
export type TeamPagesEvent = TeamPageIndexed | TeamCrawlPagesRemoved;

export type TeamPagesCommand =
  | ({ type: 'IndexTeamPage'; max_pages: number } & TeamPageIndexedData)
  | { type: 'RemoveCrawlPages'; team_id: string; crawl_id: string };

export interface TeamPagesState {
  /** Pages held, every crawl's counted. */
  pages: number;
  /** URLs indexed by each crawl still held. */
  crawls: Readonly<Record<string, readonly string[]>>;
  /** Crawls taken out: their later pages are not indexed again. */
  removed: Readonly<Record<string, true>>;
}

/** The sentence a refusal at the bound says (the crawl's 429 and its log line alike). */
export const teamPagesBound = (max: number, held: number): string =>
  `a team's index holds at most ${max} pages (MAX_INDEXED_PAGES_PER_TEAM); this team's holds ${held}: remove a crawl's pages with DELETE /v1/crawl/{id}/index`;

export const teamPagesDecider: Decider<TeamPagesCommand, TeamPagesEvent, TeamPagesState> = {
  initialState: { pages: 0, crawls: {}, removed: {} },
  decide(command, state) {
    if (command.type === 'RemoveCrawlPages') {
      const held = state.crawls[command.crawl_id];
      // Nothing held (never indexed, or removed already): nothing to record.
      if (!held) return [];
      return [
        {
          type: 'TeamCrawlPagesRemoved',
          data: { team_id: command.team_id, crawl_id: command.crawl_id, removed: held.length },
        },
      ];
    }
    const { type: _type, max_pages, ...page } = command;
    // A redelivered or resumed page decides nothing.
    if (state.crawls[page.crawl_id]?.includes(page.url)) return [];
    if (state.removed[page.crawl_id])
      throw new Conflict(`the pages of crawl ${page.crawl_id} were removed from the team's index`);
    if (state.pages >= max_pages) throw new Conflict(teamPagesBound(max_pages, state.pages));
    return [{ type: 'TeamPageIndexed', data: page }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'TeamPageIndexed': {
        const { crawl_id, url } = event.data;
        const held = state.crawls[crawl_id] ?? [];
        if (held.includes(url)) return state;
        return { ...state, pages: state.pages + 1, crawls: { ...state.crawls, [crawl_id]: [...held, url] } };
      }
      case 'TeamCrawlPagesRemoved': {
        const held = state.crawls[event.data.crawl_id];
        const { [event.data.crawl_id]: _gone, ...crawls } = state.crawls;
        return {
          pages: state.pages - (held?.length ?? 0),
          crawls,
          removed: { ...state.removed, [event.data.crawl_id]: true },
        };
      }
      default:
        return state;
    }
  },
};
