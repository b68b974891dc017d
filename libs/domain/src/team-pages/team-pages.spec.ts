import { specFor } from '../testing/given-when-then';
import { type TeamPagesEvent, teamPagesDecider } from './team-pages';

const spec = specFor(teamPagesDecider);
const page = (crawl_id: string, url: string, page_revision = '3') => ({
  team_id: 't',
  crawl_id,
  url,
  content_type: 'text/markdown' as const,
  page_revision,
});
const indexed = (crawl_id: string, url: string, page_revision = '3'): TeamPagesEvent => ({
  type: 'TeamPageIndexed',
  data: page(crawl_id, url, page_revision),
});

describe('team pages decider', () => {
  it('indexes a crawl page under the cap', () =>
    spec([indexed('c1', 'https://a.test/1')])
      .when({ type: 'IndexTeamPage', max_pages: 2, ...page('c1', 'https://a.test/2', '5') })
      .then([indexed('c1', 'https://a.test/2', '5')]));

  it('a page the crawl already indexed decides nothing (redelivery, takeover)', () =>
    spec([indexed('c1', 'https://a.test/1')])
      .when({ type: 'IndexTeamPage', max_pages: 1, ...page('c1', 'https://a.test/1') })
      .then([]));

  it('refuses a page past the cap, naming the bound and the variable', () =>
    spec([indexed('c1', 'https://a.test/1'), indexed('c2', 'https://a.test/1')])
      .when({ type: 'IndexTeamPage', max_pages: 2, ...page('c3', 'https://a.test/3') })
      .thenThrows({
        refusal: 'conflict',
        message: /at most 2 pages \(MAX_INDEXED_PAGES_PER_TEAM\); this team's holds 2/,
      }));

  it('removing a crawl frees its pages for later crawls', () =>
    spec([
      indexed('c1', 'https://a.test/1'),
      indexed('c1', 'https://a.test/2'),
      { type: 'TeamCrawlPagesRemoved', data: { team_id: 't', crawl_id: 'c1', removed: 2 } },
    ])
      .when({ type: 'IndexTeamPage', max_pages: 2, ...page('c2', 'https://a.test/1') })
      .then([indexed('c2', 'https://a.test/1')]));

  it('removes what a crawl holds, once', () => {
    spec([indexed('c1', 'https://a.test/1'), indexed('c2', 'https://a.test/9'), indexed('c1', 'https://a.test/2')])
      .when({ type: 'RemoveCrawlPages', team_id: 't', crawl_id: 'c1' })
      .then([{ type: 'TeamCrawlPagesRemoved', data: { team_id: 't', crawl_id: 'c1', removed: 2 } }]);
    spec([
      indexed('c1', 'https://a.test/1'),
      { type: 'TeamCrawlPagesRemoved', data: { team_id: 't', crawl_id: 'c1', removed: 1 } },
    ])
      .when({ type: 'RemoveCrawlPages', team_id: 't', crawl_id: 'c1' })
      .then([]);
    spec([]).when({ type: 'RemoveCrawlPages', team_id: 't', crawl_id: 'never' }).then([]);
  });

  it("a removed crawl's later pages are not indexed again", () =>
    spec([
      indexed('c1', 'https://a.test/1'),
      { type: 'TeamCrawlPagesRemoved', data: { team_id: 't', crawl_id: 'c1', removed: 1 } },
    ])
      .when({ type: 'IndexTeamPage', max_pages: 10, ...page('c1', 'https://a.test/2') })
      .thenThrows({ refusal: 'conflict', message: /were removed/ }));

  it('counts pages per crawl', () => {
    const state = [
      indexed('c1', 'https://a.test/1'),
      indexed('c2', 'https://a.test/1'),
      indexed('c1', 'https://a.test/2'),
    ].reduce(teamPagesDecider.evolve, teamPagesDecider.initialState);
    expect(state.pages).toBe(3);
    expect(state.crawls).toEqual({ c1: ['https://a.test/1', 'https://a.test/2'], c2: ['https://a.test/1'] });
  });
});
