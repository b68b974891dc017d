import {
  CrawlPageViewSchema,
  CrawlViewSchema,
  RUN_STATUSES,
  SkuLineItemSchema,
  type Static,
  StringEnum,
  Type,
} from '@app/domain';

/**
 * The answers of the crawl and map routes that are not a run's view, declared once beside them:
 * each route's return type is `Static` of its schema, and the OpenAPI document serves the schema.
 */
export const CrawlStartedSchema = Type.Object(
  { crawl_id: Type.String(), status: StringEnum(RUN_STATUSES) },
  { $id: 'CrawlStarted' },
);
export type CrawlStarted = Static<typeof CrawlStartedSchema>;

/** GET /v1/crawl/{id}: the run with a page of its pages, in the order read. */
export const CrawlRunWithPagesSchema = Type.Composite(
  [
    CrawlViewSchema,
    Type.Object({ pages: Type.Array(CrawlPageViewSchema), pages_limit: Type.Integer(), pages_offset: Type.Integer() }),
  ],
  { $id: 'CrawlRunWithPages' },
);
export type CrawlRunWithPages = Static<typeof CrawlRunWithPagesSchema>;

export const CrawlIndexRemovedSchema = Type.Object(
  { crawl_id: Type.String(), removed: Type.Integer() },
  { $id: 'CrawlIndexRemoved' },
);
export type CrawlIndexRemoved = Static<typeof CrawlIndexRemovedSchema>;

/** POST /v1/map: the site's URLs, what they cost. */
export const SiteMapSchema = Type.Object(
  {
    url: Type.String(),
    links: Type.Array(
      Type.Object({ url: Type.String(), title: Type.Optional(Type.String()), lastmod: Type.Optional(Type.String()) }),
    ),
    credits: Type.Number(),
    usage: Type.Array(SkuLineItemSchema),
  },
  { $id: 'SiteMap' },
);
export type SiteMap = Static<typeof SiteMapSchema>;
