import type { FixtureWeb } from './fixture-web';
import { ReplayServer } from './replay-server';

/**
 * A SearXNG stand-in on loopback that answers every query after `delayMs` with fixture-web pages
 * (SearXNG's JSON shape): a search provider slow enough to cancel a deep run mid-way or kill its
 * worker mid-run, whose results must really be fetched (their hits carry no page text).
 */
export async function startSlowSearxng(web: FixtureWeb, delayMs: number): Promise<ReplayServer> {
  const pages = web.urls().filter((url) => !/internal|drafts|pdf|thank-you|press-kit/.test(url));
  return ReplayServer.start({
    routes: [
      {
        path: '/search',
        delayMs,
        respond: (req) => {
          const q = String(req.query.q ?? '');
          let h = 0;
          for (const c of q) h = (h * 31 + c.charCodeAt(0)) >>> 0;
          const results = Array.from({ length: 6 }, (_, i) => pages[(h + i * 7) % pages.length]).map((url, i) => ({
            url,
            title: `${new URL(web.publicUrl(url)).pathname} (${q})`,
            content: `A page about ${q}.`,
            engine: 'stub',
            engines: ['stub'],
            score: 6 - i,
            category: 'general',
          }));
          return {
            body: {
              query: q,
              number_of_results: results.length,
              results,
              answers: [],
              corrections: [],
              infoboxes: [],
              suggestions: [],
              unresponsive_engines: [],
            },
          };
        },
      },
    ],
  });
}

/**
 * The service settings that search through `searxng` (no rate limit of its own, 16 in flight) and
 * fetch the fixture web's pages, plus any other hosts the suite serves (a webhook receiver).
 */
export function searxngEnv(searxng: ReplayServer, web: FixtureWeb, alsoAllow: string[] = []): Record<string, string> {
  return {
    SEARCH_PROVIDER: 'searxng',
    SEARXNG_URL: searxng.url,
    SEARXNG_RPS: '0',
    SEARXNG_MAX_CONCURRENT: '16',
    FETCH_ALLOW_HOSTS: [...web.allowHosts, ...alsoAllow].join(','),
  };
}
