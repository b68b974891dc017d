import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
  ArrayMaxSize,
  ArrayMinSize,
  ValidateIf,
} from 'class-validator';

export const EXTRACT_FORMATS = ['markdown', 'text', 'html'] as const;
export type ExtractFormatName = (typeof EXTRACT_FORMATS)[number];
/** When a page is rendered in a headless browser first: `auto` when its HTML has little text and scripts that would fill it. */
export const RENDER_MODES = ['auto', 'always', 'never'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/** `extraction.extract` request: the gateway has validated it (POST /v1/extract rules). */
export class ExtractRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  urls!: string[];

  @IsOptional()
  @IsString()
  objective?: string | null;

  @IsIn(EXTRACT_FORMATS)
  format!: ExtractFormatName;

  @IsBoolean()
  full_content!: boolean;

  @IsBoolean()
  excerpts!: boolean;

  @IsOptional()
  @IsInt()
  @Min(100)
  max_chars_per_result?: number | null;

  /** Read the pages as they are now: neither served from nor written to the page cache (page monitors). */
  @IsOptional()
  @IsBoolean()
  fresh?: boolean;

  /** Absent: `auto`. */
  @IsOptional()
  @IsIn(RENDER_MODES)
  render?: RenderMode;
}

export class SkuLineItemDto {
  @IsString() sku!: string;
  @IsInt() @Min(0) quantity!: number;
  @IsInt() @Min(0) credits!: number;
}

/** One URL's outcome: extracted, or a per-URL `error` (then the other fields are null). */
export class ExtractResultDto {
  @IsString() url!: string;
  @ValidateIf((_, v) => v !== null) @IsString() final_url!: string | null;
  @ValidateIf((_, v) => v !== null) @IsInt() status!: number | null;
  @ValidateIf((_, v) => v !== null) @IsString() title!: string | null;
  @ValidateIf((_, v) => v !== null) @IsString() content!: string | null;
  @IsArray() @IsString({ each: true }) excerpts!: string[];
  @ValidateIf((_, v) => v !== null) @IsString() published_date!: string | null;
  @ValidateIf((_, v) => v !== null) @IsString() language!: string | null;
  /** What the document was read as: `text/html`, `application/pdf`, the Word type, ...; null on error. */
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() content_type!: string | null;
  /** A PDF's page count; null otherwise. */
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsInt() pages!: number | null;
  /** Offset in the text (`format: text`) where each PDF page starts, for citing a page. */
  @IsOptional() @IsArray() @IsInt({ each: true }) page_starts?: number[];
  @ValidateIf((_, v) => v !== null) @IsString() error!: string | null;
  /** `extraction.read` only: true when the page was rendered in the browser (the caller charges it `sku_render`). */
  @IsOptional() @IsBoolean() rendered?: boolean;
}

/** `extraction.extract` reply; `position` is the charge's append position (read-your-writes). */
export class ExtractReply {
  @IsArray() @ValidateNested({ each: true }) @Type(() => ExtractResultDto) results!: ExtractResultDto[];
  @IsInt() @Min(0) credits!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => SkuLineItemDto) usage!: SkuLineItemDto[];
  @IsOptional() @IsString() position?: string;
}

export const MAP_SITEMAP_MODES = ['include', 'only', 'skip'] as const;

/** `extraction.map` request: the gateway has validated it (POST /v1/map rules). */
export class MapRequest {
  @IsString() url!: string;
  @IsInt() @Min(1) @Max(5000) limit!: number;
  @IsOptional() @IsString() search?: string | null;
  @IsBoolean() include_subdomains!: boolean;
  @IsIn(MAP_SITEMAP_MODES) sitemap!: (typeof MAP_SITEMAP_MODES)[number];
}

export class MapLinkDto {
  @IsString() url!: string;
  @IsOptional() @IsString() title?: string;
  @IsOptional() @IsString() lastmod?: string;
}

/** `extraction.map` reply; `position` is the charge's append position (read-your-writes). */
export class MapReply {
  @IsString() url!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => MapLinkDto) links!: MapLinkDto[];
  @IsInt() @Min(0) credits!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => SkuLineItemDto) usage!: SkuLineItemDto[];
  @IsOptional() @IsString() position?: string;
}
