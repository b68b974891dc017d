import type { ApiPropertyOptions } from '@nestjs/swagger';
import { RE2JS } from 're2js';
import { CRAWL_FORMATS, CRAWL_LIMITS, CRAWL_RENDER } from '@app/domain';
import { MAP_SITEMAP_MODES } from '@app/contracts';
import {
  BoolField,
  EnumField,
  fail,
  IntField,
  listParser,
  type Parser,
  PyField,
  StrField,
  strParser,
  UrlField,
} from '@app/platform';
import { MaxCreditsField } from '../runs/max-credits.field';

/** A path pattern: a string RE2 compiles (linear-time matching: no pattern can stall the crawl). */
const patternParser = (): Parser => {
  const asString = strParser({ minLength: 1, maxLength: CRAWL_LIMITS.patternChars });
  return (input, loc) => {
    const parsed = asString(input, loc);
    if (!parsed.ok) return parsed;
    try {
      RE2JS.compile(parsed.value as string);
      return parsed;
    } catch (error) {
      return fail(
        'value_error',
        loc,
        `Value error, not a valid regular expression: ${(error as Error).message}`,
        input,
      );
    }
  };
};

const PatternsField = (description: string) =>
  PyField(
    listParser(patternParser(), { maxItems: CRAWL_LIMITS.patterns }),
    { optional: true, nullable: true, description },
    {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: CRAWL_LIMITS.patternChars },
      maxItems: CRAWL_LIMITS.patterns,
    } as ApiPropertyOptions,
    true,
  );

export class CrawlBody {
  @UrlField({ description: 'The start page (depth 0)' }) url!: string;
  @IntField({ ge: 1, le: CRAWL_LIMITS.pages, default: 100, description: 'Pages read at most' }) limit!: number;
  @IntField({ ge: 0, le: CRAWL_LIMITS.depth, default: 3, description: 'Link hops from the start page' })
  max_depth!: number;
  @PatternsField('Regular expressions (RE2) on the path and query: only matching pages are followed') include_paths?:
    string[] | null;
  @PatternsField('Regular expressions (RE2) on the path and query: matching pages are not followed') exclude_paths?:
    string[] | null;
  @BoolField({ default: false, description: 'Follow links to subdomains of the start host' })
  include_subdomains!: boolean;
  @EnumField(CRAWL_FORMATS, { default: 'markdown' }) format!: (typeof CRAWL_FORMATS)[number];
  @EnumField(CRAWL_RENDER, {
    default: 'auto',
    description: 'Rendering of script-built pages, as /v1/extract reads them',
  })
  render!: (typeof CRAWL_RENDER)[number];
  @BoolField({
    default: false,
    description:
      "Add the pages read to the team's own search index: its searches and runs find them, no other team's do (MAX_INDEXED_PAGES_PER_TEAM; DELETE /v1/crawl/{id}/index removes them)",
  })
  index!: boolean;
  @UrlField({
    optional: true,
    nullable: true,
    description: 'The finished run is POSTed here (crawl_run.completed|failed|cancelled)',
  })
  webhook?: string | null;
  @MaxCreditsField()
  max_credits?: number | null;
}

export class CrawlIdParams {
  @StrField({ minLength: 1, maxLength: 200 }) crawl_id!: string;
}

/** A page of the crawl's pages, in the order they were read. */
export class CrawlPagesQuery {
  @IntField({ ge: 1, le: 100, default: 20 }) limit!: number;
  @IntField({ ge: 0, default: 0 }) offset!: number;
}

export class MapBody {
  @UrlField({ description: 'The site to map (its start page)' }) url!: string;
  @IntField({ ge: 1, le: 5000, default: 1000 }) limit!: number;
  @StrField({
    optional: true,
    nullable: true,
    maxLength: 500,
    description: 'Rank the links by how well their title and URL words match this',
  })
  search?: string | null;
  @BoolField({ default: false }) include_subdomains!: boolean;
  @EnumField(MAP_SITEMAP_MODES, {
    default: 'include',
    description: 'include: sitemaps and links; only: sitemaps; skip: links only',
  })
  sitemap!: (typeof MAP_SITEMAP_MODES)[number];
}
