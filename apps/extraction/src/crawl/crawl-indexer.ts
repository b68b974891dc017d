import { Injectable } from '@nestjs/common';
import { BusClient } from '@app/bus';
import { callBus, subjects } from '@app/contracts';

const CONTENT_TYPES = { markdown: 'text/markdown', text: 'text/plain', html: 'text/html' } as const;

/** A crawl with `index: true` hands each page read to the search service's local index. */
@Injectable()
export class CrawlIndexer {
  constructor(private readonly bus: BusClient) {}

  async add(crawlId: string, page: { url: string; title: string | null; content: string; format: keyof typeof CONTENT_TYPES }): Promise<number> {
    const reply = await callBus(this.bus, subjects.indexPages, {
      source: `crawl:${crawlId}`,
      pages: [{ url: page.url, title: page.title, content: page.content, content_type: CONTENT_TYPES[page.format] }],
    });
    if (reply.note) throw new Error(reply.note);
    return reply.indexed;
  }
}
