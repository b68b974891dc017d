import { robotsCache } from '@app/urls';
import { extractAny } from './documents/extract-any';
import type { ExtractedDocument, ExtractOptions } from './extraction.port';
import { type PageLinks, pageLinks } from './html/links';
import { treeTagsFor } from './markup';
import { parseSitemap, type Sitemap } from './sitemap';

/** Which renderings of the content to bring back besides the text (default both): what crosses threads is copied. */
export type Renderings = ReadonlyArray<'markdown' | 'html'>;

/** robots.txt's verdicts on a list of URLs, with what else the file says for us. */
export interface RobotsVerdict {
  allowed: boolean[];
  crawlDelaySec: number | null;
  sitemaps: string[];
}

/**
 * Everything a site sends that the service parses, as work for an extraction thread (under its
 * deadline and heap limit): a page or document's content, a page's links, a sitemap, robots.txt.
 */
export type ThreadTask =
  | { kind: 'extract'; body: string; options: ExtractOptions; keep: Renderings }
  | { kind: 'links'; html: string; pageUrl: string; heapMb?: number }
  | { kind: 'sitemap'; xml: string; maxEntries: number }
  | { kind: 'robots'; text: string; userAgent: string; urls: string[] };

export interface ThreadResults {
  extract: ExtractedDocument;
  links: PageLinks;
  sitemap: Sitemap;
  robots: RobotsVerdict;
}

/** Parsed robots files kept by a thread (a crawl asks about one file once per page). */
const robotsRules = robotsCache();

/** Does one task, on whichever thread calls it (an extraction thread, or inline without one). */
export async function runTask<T extends ThreadTask>(task: T): Promise<ThreadResults[T['kind']]> {
  return (await run(task)) as ThreadResults[T['kind']];
}

async function run(task: ThreadTask): Promise<ThreadResults[ThreadTask['kind']]> {
  switch (task.kind) {
    case 'extract': {
      const document = await extractAny(task.body, task.options);
      // Only the renderings asked for cross back: each is copied on the asking thread.
      if (!task.keep.includes('markdown')) document.markdown = '';
      if (!task.keep.includes('html')) document.html = '';
      return document;
    }
    case 'links':
      return pageLinks(task.html, task.pageUrl, treeTagsFor(task.heapMb));
    case 'sitemap':
      return parseSitemap(task.xml, task.maxEntries);
    case 'robots': {
      const rules = robotsRules(task.text, task.userAgent);
      return {
        allowed: task.urls.map((url) => rules.isAllowed(url)),
        crawlDelaySec: rules.crawlDelaySec,
        sitemaps: rules.sitemaps,
      };
    }
  }
}

/** The error of a task given up at its deadline: "the page took longer than 2 s to extract". */
export function overdueMessage(task: ThreadTask, document: boolean, ms: number): string {
  const took = `took longer than ${ms / 1000} s`;
  switch (task.kind) {
    case 'extract':
      return `the ${document ? 'document' : 'page'} ${took} to extract`;
    case 'links':
      return `the page's links ${took} to read`;
    case 'sitemap':
      return `the sitemap ${took} to read`;
    case 'robots':
      return `robots.txt ${took} to read`;
  }
}
