import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { FRESHNESS } from '@app/domain';
import { SkuLineItemDto } from './extraction.dto';

export const SYNC_DEPTHS = ['instant', 'fast', 'auto'] as const;
export type SyncDepth = (typeof SYNC_DEPTHS)[number];
export const SEARCH_CATEGORIES = [
  'company',
  'research_paper',
  'news',
  'personal_site',
  'financial_report',
  'people',
] as const;
export const SEARCH_FRESHNESS = FRESHNESS;

const nullable = (_: object, value: unknown) => value !== null && value !== undefined;

export class SourcePolicyDto {
  @ValidateIf(nullable) @IsArray() @IsString({ each: true }) include_domains?: string[] | null;
  @ValidateIf(nullable) @IsArray() @IsString({ each: true }) exclude_domains?: string[] | null;
  /** Inclusive `YYYY-MM-DD` bounds on the page's date. */
  @ValidateIf(nullable) @IsString() after_date?: string | null;
  @ValidateIf(nullable) @IsString() before_date?: string | null;
}

export class ExcerptSettingsDto {
  @ValidateIf(nullable) @IsInt() @Min(1) max_chars_per_result?: number | null;
}

export class ContentsSettingsDto {
  /** The page's main text on each row (`text`). */
  @IsOptional() @IsBoolean() text?: boolean;
  /** Objective-focused passages of the page (`highlights`). */
  @IsOptional() @IsBoolean() highlights?: boolean;
  /** A short extractive summary of the page (`summary`). */
  @IsOptional() @IsBoolean() summary?: boolean;
  @ValidateIf(nullable) @IsInt() @Min(100) max_chars?: number | null;
}

export class AdvancedSettingsDto {
  @IsOptional() @ValidateNested() @Type(() => SourcePolicyDto) source_policy?: SourcePolicyDto | null;
  @IsOptional() @ValidateNested() @Type(() => ExcerptSettingsDto) excerpts?: ExcerptSettingsDto | null;
  @IsOptional() @ValidateNested() @Type(() => ContentsSettingsDto) contents?: ContentsSettingsDto | null;
}

/** `search.query` request: POST /v1/search after validation, aliases resolved (mode -> depth, location -> country). */
export class SearchRequest {
  @IsArray() @IsString({ each: true }) queries!: string[];
  @ValidateIf(nullable) @IsString() objective!: string | null;
  @IsIn(SYNC_DEPTHS) depth!: SyncDepth;
  @ValidateIf(nullable) @IsIn(SEARCH_CATEGORIES) category!: (typeof SEARCH_CATEGORIES)[number] | null;
  @IsInt() @Min(1) limit!: number;
  @IsString() country!: string;
  @IsString() language!: string;
  @ValidateIf(nullable) @IsIn(SEARCH_FRESHNESS) freshness!: (typeof SEARCH_FRESHNESS)[number] | null;
  @ValidateIf(nullable) @IsArray() @IsString({ each: true }) include_domains!: string[] | null;
  @ValidateIf(nullable) @IsArray() @IsString({ each: true }) exclude_domains!: string[] | null;
  @ValidateIf(nullable) @IsInt() @Min(1) max_excerpt_chars!: number | null;
  @IsString() session_id!: string;
  @ValidateIf(nullable) @IsString() client_model!: string | null;
  @ValidateIf(nullable)
  @ValidateNested()
  @Type(() => AdvancedSettingsDto)
  advanced_settings!: AdvancedSettingsDto | null;
}

export class SearchResultRow {
  @IsString() url!: string;
  @IsString() title!: string;
  @IsString() snippet!: string;
  @IsArray() @IsString({ each: true }) excerpts!: string[];
  @ValidateIf(nullable) @IsString() date!: string | null;
  @IsString() domain!: string;
  @ValidateIf(nullable) @IsString() category!: string | null;
  @IsNumber() score!: number;
  @IsOptional() @IsString() text?: string;
  @IsOptional() @IsArray() @IsString({ each: true }) highlights?: string[];
  @IsOptional() @IsString() summary?: string;
  @IsOptional() @IsString() contents_error?: string;
}

export class SearchTiming {
  @IsInt() @Min(0) total!: number;
  @IsInt() @Min(0) provider!: number;
  @IsInt() @Min(0) rerank!: number;
}

/** `search.query` reply: the SearchResponse of API.md, plus the charge's append position. */
export class SearchReply {
  @IsString() search_id!: string;
  @IsString() session_id!: string;
  @ValidateIf(nullable) @IsString() client_model!: string | null;
  @IsIn(SYNC_DEPTHS) depth!: SyncDepth;
  @IsArray() @IsString({ each: true }) queries!: string[];
  @IsArray() @ValidateNested({ each: true }) @Type(() => SearchResultRow) results!: SearchResultRow[];
  @IsBoolean() reranked!: boolean;
  @IsInt() @Min(0) dropped_off_topic!: number;
  @IsArray() @IsString({ each: true }) warnings!: string[];
  @IsInt() @Min(0) credits!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => SkuLineItemDto) usage!: SkuLineItemDto[];
  @IsObject() @ValidateNested() @Type(() => SearchTiming) timing_ms!: SearchTiming;
  @IsOptional() @IsString() position?: string;
}

/** `extraction.fetch` request: one page for a crawler (the local index's seeds). */
export class FetchPageRequest {
  @IsString() url!: string;
  @IsOptional() @IsBoolean() respect_robots?: boolean;
  @IsOptional() @IsInt() @Min(0) max_age_ms?: number;
}

export class FetchedPageDto {
  @IsString() url!: string;
  @IsString() finalUrl!: string;
  @IsInt() status!: number;
  @IsString() contentType!: string;
  @IsString() charset!: string;
  @IsString() body!: string;
  /** `base64`: a PDF's or Word file's bytes. */
  @IsOptional() @IsIn(['base64']) encoding?: 'base64';
  @IsInt() bytes!: number;
  @IsString() fetchedAt!: string;
  @IsBoolean() fromCache!: boolean;
}

/** The page, or the fetch error's code and sentence (a refusal is data, not a bus error). */
export class FetchPageReply {
  @IsOptional() @ValidateNested() @Type(() => FetchedPageDto) page?: FetchedPageDto;
  @IsOptional() @IsObject() error?: { code: string; message: string; status?: number };
}
