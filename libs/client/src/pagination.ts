import type { RequestOptions, Transport } from './transport';

/** A page of a list endpoint: `limit` 1..100, `offset` >= 0. */
export interface PageQuery {
  limit?: number;
  offset?: number;
}

/** What a list endpoint answers, its items under the list's own key taken out as `items`. */
export interface PageBody<Item> {
  items: Item[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * One page of a list: its items, the list's `total`, and the way to the next page. The service
 * pages by offset, newest first, so a run created while a list is read shifts what later pages
 * hold by one.
 */
export class Page<Item> implements PageBody<Item>, AsyncIterable<Item> {
  readonly items: Item[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;

  constructor(
    body: PageBody<Item>,
    private readonly fetchPage: (query: Required<PageQuery>) => Promise<PageBody<Item>>,
  ) {
    ({ items: this.items, total: this.total, limit: this.limit, offset: this.offset } = body);
  }

  /** More items after this page (an empty page ends the list, whatever `total` says). */
  hasNextPage(): boolean {
    return this.items.length > 0 && this.offset + this.items.length < this.total;
  }

  /** The page after this one, of the same `limit`. */
  async getNextPage(): Promise<Page<Item>> {
    if (!this.hasNextPage()) throw new Error('no page after this one: check hasNextPage() first');
    const offset = this.offset + this.items.length;
    const next = await this.fetchPage({ limit: this.limit, offset });
    // A server that ignores `offset` would answer the same page for ever: a walk only moves forward.
    if (next.offset !== offset)
      throw new Error(`asked for the page at offset ${offset}, the service answered offset ${next.offset}`);
    return new Page(next, this.fetchPage);
  }

  /** This page's items, then every later page's, fetched as the loop reaches them. */
  [Symbol.asyncIterator](): AsyncGenerator<Item> {
    return itemsFrom(this);
  }
}

/** The items of a page and of every later page, each page fetched as the loop reaches it. */
async function* itemsFrom<Item>(first: Page<Item>): AsyncGenerator<Item> {
  for (let page = first; ; page = await page.getNextPage()) {
    yield* page.items;
    if (!page.hasNextPage()) return;
  }
}

/**
 * A list call: `await` it for its first page, or `for await` over it for every item of every
 * page (`for await (const task of client.tasks.list({ status: 'completed' }))`), as openai-node's
 * lists do. The first page is asked for once, when first awaited or iterated.
 */
export class PagePromise<Item> implements PromiseLike<Page<Item>>, AsyncIterable<Item> {
  private first: Promise<Page<Item>> | undefined;

  constructor(
    private readonly query: PageQuery,
    private readonly fetchPage: (query: PageQuery) => Promise<PageBody<Item>>,
  ) {}

  private page(): Promise<Page<Item>> {
    this.first ??= this.fetchPage(this.query).then(
      (body) => new Page(body, (next) => this.fetchPage({ ...this.query, ...next })),
    );
    return this.first;
  }

  then<A = Page<Item>, B = never>(
    onFulfilled?: ((page: Page<Item>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.page().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<Item> | B> {
    return this.page().catch(onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    yield* await this.page();
  }
}

/** One page of a list endpoint, its items taken from under the list's key. */
export async function pageOf<Item>(
  transport: Transport,
  path: string,
  key: string,
  query: PageQuery,
  options?: RequestOptions,
): Promise<PageBody<Item>> {
  const body = await transport.json<
    { [key: string]: Item[] | number } & { total: number; limit: number; offset: number }
  >({ method: 'GET', path, query, options });
  const items = body[key];
  return { items: Array.isArray(items) ? items : [], total: body.total, limit: body.limit, offset: body.offset };
}
