import { BusClient, BusTimeoutError } from '@app/bus';
import { callBus, type FetchPageReply, subjects } from '@app/contracts';
import { type FetchedPage, FetchError, type FetchErrorCode, type FetchOptions, type PageFetcher } from '@app/fetch';

/**
 * The local index's crawler fetches seed pages through the extraction service (the only service
 * that opens connections to the web), so its SSRF guard, cache and per-host limits apply.
 */
export class BusPageFetcher implements PageFetcher {
  constructor(
    private readonly bus: BusClient,
    private readonly timeoutMs = 30_000,
  ) {}

  async fetch(url: string, options: FetchOptions = {}): Promise<FetchedPage> {
    const payload = {
      url,
      respect_robots: options.respectRobots ?? false,
      ...(options.maxAgeMs !== undefined && { max_age_ms: options.maxAgeMs }),
    };
    let reply: FetchPageReply | undefined;
    // At boot in cluster mode the extraction service may not listen yet: wait for it (bounded).
    for (let attempt = 0; !reply; attempt++) {
      try {
        reply = await callBus(this.bus, subjects.fetchPage, payload, { timeoutMs: this.timeoutMs });
      } catch (error) {
        if (!(error instanceof BusTimeoutError) || error.reason === 'timeout' || attempt >= 40) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * Math.min(4, attempt + 1)));
      }
    }
    if (reply.error)
      throw new FetchError(reply.error.code as FetchErrorCode, url, reply.error.message, reply.error.status);
    if (!reply.page) throw new FetchError('unreachable', url, `${url}: no answer from the extraction service`);
    return reply.page;
  }

  async robotsAllowed(): Promise<boolean> {
    // The extraction service applies robots.txt itself when asked (respectRobots).
    return true;
  }

  async robotsFilter(urls: readonly string[]): Promise<boolean[]> {
    return urls.map(() => true);
  }

  async robotsSitemaps(): Promise<string[]> {
    return [];
  }

  async crawlDelayMs(): Promise<number> {
    // The seed crawler reads robots.txt's Crawl-delay itself (through fetch).
    return 0;
  }

  async close(): Promise<void> {}
}
