import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

import { SEARCH_CATEGORIES, SEARCH_FRESHNESS } from './search.dto';

const nullable = (_: object, value: unknown) => value !== null && value !== undefined;

/** `search.page`: one provider page, uncharged (for the research pipeline, which charges its run). */
export class SearchPageRequest {
  @IsString() query!: string;
  @IsInt() @Min(1) page!: number;
  @IsInt() @Min(1) limit!: number;
  @IsString() country!: string;
  @IsString() language!: string;
  /** Filters of a deep run, applied as a synchronous search applies them (natively or after the fact). */
  @IsOptional() @ValidateIf(nullable) @IsIn(SEARCH_CATEGORIES) category?: (typeof SEARCH_CATEGORIES)[number] | null;
  @IsOptional() @ValidateIf(nullable) @IsIn(SEARCH_FRESHNESS) freshness?: (typeof SEARCH_FRESHNESS)[number] | null;
  @IsOptional() @ValidateIf(nullable) @IsArray() @IsString({ each: true }) include_domains?: string[] | null;
  @IsOptional() @ValidateIf(nullable) @IsArray() @IsString({ each: true }) exclude_domains?: string[] | null;
  @IsOptional() @ValidateIf(nullable) @IsString() after_date?: string | null;
  @IsOptional() @ValidateIf(nullable) @IsString() before_date?: string | null;
  /** The team whose run asks: its own pages (crawls with `index: true`) are searched with the shared index. */
  @IsOptional() @ValidateIf(nullable) @IsString() team_id?: string | null;
}

export class SearchPageHit {
  @IsString() url!: string;
  @IsString() title!: string;
  @IsString() snippet!: string;
  @ValidateIf(nullable) @IsString() date!: string | null;
  @ValidateIf(nullable) @IsString() category!: string | null;
  @ValidateIf(nullable) @IsString() language!: string | null;
  @IsNumber() score!: number;
  @IsOptional() @IsString() content?: string;
}

export class SearchPageReply {
  @IsArray() @ValidateNested({ each: true }) @Type(() => SearchPageHit) hits!: SearchPageHit[];
  @IsInt() page!: number;
  @IsBoolean() hasMore!: boolean;
  @IsArray() @IsString({ each: true }) warnings!: string[];
}
