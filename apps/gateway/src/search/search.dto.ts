import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SEARCH_CATEGORIES, SEARCH_FRESHNESS } from '@app/contracts';
import { DEEP_SEARCH_BOUNDS as BOUNDS } from '@app/domain';
import {
  BoolField,
  DateField,
  EnumField,
  IntField,
  NestedField,
  StrField,
  StrListField,
  UrlField,
} from '@app/platform';
import { SkuUsageLine } from '../extract/extract.dto';
import { MaxCreditsField } from '../runs/max-credits.field';
import { PreviousInteractionField } from '../runs/follow-ups';

export const DEPTHS = ['instant', 'fast', 'auto', 'deep'] as const;
export const MODES = ['basic', 'advanced'] as const;

export class SourcePolicyBody {
  @StrListField({
    optional: true,
    nullable: true,
    itemMinLength: 1,
    description: 'Only these domains (and subdomains)',
  })
  include_domains?: string[] | null;
  @StrListField({
    optional: true,
    nullable: true,
    itemMinLength: 1,
    description: 'Never these domains (and subdomains)',
  })
  exclude_domains?: string[] | null;
  @DateField({ optional: true, nullable: true, description: 'Only pages dated on or after this day' })
  after_date?: string | null;
  @DateField({ optional: true, nullable: true, description: 'Only pages dated on or before this day' })
  before_date?: string | null;
}

export class ExcerptSettingsBody {
  @IntField({ ge: 1, optional: true, nullable: true, description: 'Characters of excerpts per result (default 500)' })
  max_chars_per_result?: number | null;
}

export class ContentsSettingsBody {
  @BoolField({ optional: true, description: 'The page’s main text on each row (`text`)' })
  text?: boolean;
  @BoolField({ optional: true, description: 'Objective-focused passages of the page (`highlights`)' })
  highlights?: boolean;
  @BoolField({ optional: true, description: 'A short extractive summary (`summary`)' })
  summary?: boolean;
  @IntField({ ge: 100, optional: true, nullable: true, description: 'Cap on `text` characters per row' })
  max_chars?: number | null;
}

export class AdvancedSettingsBody {
  @NestedField(SourcePolicyBody, { optional: true, nullable: true })
  source_policy?: SourcePolicyBody | null;
  @NestedField(ExcerptSettingsBody, { optional: true, nullable: true })
  excerpts?: ExcerptSettingsBody | null;
  @NestedField(ContentsSettingsBody, { optional: true, nullable: true })
  contents?: ContentsSettingsBody | null;
}

export class SearchBody {
  @StrListField({
    minItems: BOUNDS.queries.min,
    maxItems: BOUNDS.queries.max,
    itemMinLength: 1,
    description: `${BOUNDS.queries.min} to ${BOUNDS.queries.max} keyword queries; results merged and de-duplicated`,
  })
  queries!: string[];
  @StrField({
    optional: true,
    nullable: true,
    description: 'Re-ranks by relevance to this goal and drops off-topic rows',
  })
  objective?: string | null;
  @EnumField(DEPTHS, { optional: true, description: 'Default `auto`' })
  depth?: (typeof DEPTHS)[number];
  @EnumField(MODES, {
    optional: true,
    nullable: true,
    description: 'Alias of depth: basic = fast, advanced = auto; depth wins',
  })
  mode?: (typeof MODES)[number] | null;
  @EnumField(SEARCH_CATEGORIES, { optional: true, nullable: true })
  category?: (typeof SEARCH_CATEGORIES)[number] | null;
  @IntField({ ge: BOUNDS.limit.min, le: BOUNDS.limit.max, default: 10 })
  limit!: number;
  @StrField({ optional: true, pattern: '^[A-Za-z]{2}$', description: 'Two-letter code; default `us`' })
  country?: string;
  @StrField({ optional: true, nullable: true, pattern: '^[A-Za-z]{2}$', description: 'Alias of country; country wins' })
  location?: string | null;
  @StrField({ default: 'en', minLength: 2, maxLength: 16 })
  language!: string;
  @EnumField(SEARCH_FRESHNESS, { optional: true, nullable: true })
  freshness?: (typeof SEARCH_FRESHNESS)[number] | null;
  @StrListField({ optional: true, nullable: true, itemMinLength: 1 })
  include_domains?: string[] | null;
  @StrListField({ optional: true, nullable: true, itemMinLength: 1 })
  exclude_domains?: string[] | null;
  @IntField({ ge: 1, optional: true, nullable: true, description: 'Cap on the excerpt characters across all results' })
  max_excerpt_chars?: number | null;
  @StrField({ optional: true, nullable: true, maxLength: 256, description: 'Echoed; generated when absent' })
  session_id?: string | null;
  @StrField({ optional: true, nullable: true, maxLength: 256, description: 'Echoed only' })
  client_model?: string | null;
  @NestedField(AdvancedSettingsBody, { optional: true, nullable: true })
  advanced_settings?: AdvancedSettingsBody | null;
  @UrlField({ optional: true, nullable: true, description: 'deep only: the finished run is POSTed here' })
  webhook?: string | null;
  @StrField({ optional: true, nullable: true, description: 'deep only: the research question' })
  prompt?: string | null;
  @IntField({
    ge: BOUNDS.max_subqueries.min,
    le: BOUNDS.max_subqueries.max,
    optional: true,
    nullable: true,
    description: `deep only; default ${BOUNDS.max_subqueries.default}`,
  })
  max_subqueries?: number | null;
  @IntField({
    ge: BOUNDS.max_fetches.min,
    le: BOUNDS.max_fetches.max,
    optional: true,
    nullable: true,
    description: `deep only; default ${BOUNDS.max_fetches.default}`,
  })
  max_fetches?: number | null;
  @MaxCreditsField('deep only. ')
  max_credits?: number | null;
  @PreviousInteractionField()
  previous_interaction_id?: string | null;
}

export class SearchResultRowView {
  @ApiProperty() url!: string;
  @ApiProperty() title!: string;
  @ApiProperty() snippet!: string;
  @ApiProperty({ type: [String] }) excerpts!: string[];
  @ApiProperty({ type: String, nullable: true, example: '2026-03-01' }) date!: string | null;
  @ApiProperty({ example: 'example.org' }) domain!: string;
  @ApiProperty({ type: String, nullable: true, enum: [...SEARCH_CATEGORIES, null] }) category!: string | null;
  @ApiProperty({ description: 'Higher is better' }) score!: number;
  @ApiPropertyOptional({ description: 'With advanced_settings.contents.text' }) text?: string;
  @ApiPropertyOptional({ type: [String], description: 'With advanced_settings.contents.highlights' })
  highlights?: string[];
  @ApiPropertyOptional({ description: 'With advanced_settings.contents.summary' }) summary?: string;
  @ApiPropertyOptional({ description: 'Why contents could not be read for this row' }) contents_error?: string;
}

export class SearchTimingView {
  @ApiProperty() total!: number;
  @ApiProperty() provider!: number;
  @ApiProperty() rerank!: number;
}

export class SearchResponse {
  @ApiProperty({ description: 'For logs and support only' }) search_id!: string;
  @ApiProperty() session_id!: string;
  @ApiProperty({ type: String, nullable: true }) client_model!: string | null;
  @ApiProperty({ enum: ['instant', 'fast', 'auto'] }) depth!: string;
  @ApiProperty({ type: [String] }) queries!: string[];
  @ApiProperty({ type: [SearchResultRowView] }) results!: SearchResultRowView[];
  @ApiProperty() reranked!: boolean;
  @ApiProperty({ description: 'Rows dropped as off-topic for the objective' }) dropped_off_topic!: number;
  @ApiProperty({ type: [String] }) warnings!: string[];
  @ApiProperty() credits!: number;
  @ApiProperty({ type: [SkuUsageLine] }) usage!: SkuUsageLine[];
  @ApiProperty({ type: SearchTimingView }) timing_ms!: SearchTimingView;
}
