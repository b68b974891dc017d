import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { nullableOf, ref } from '../openapi/response-schemas';
import {
  type Finding,
  RUN_STATUSES,
  type RunResult,
  type RunStatus,
  type RunUsage,
  type SkuLineItem,
  type Source,
  type SearchRunView,
} from '@app/domain';
/** The deep run's view in the OpenAPI document; `implements` keeps it in step with the domain's. */
export class SearchRunViewDto implements SearchRunView {
  @ApiProperty() search_id!: string;
  @ApiProperty({ enum: RUN_STATUSES }) status!: RunStatus;
  @ApiProperty({ type: [String] }) queries!: string[];
  @ApiProperty() limit!: number;
  @ApiProperty({ enum: ['deep'] }) depth!: 'deep';
  @ApiProperty({ default: 'us' }) country!: string;
  @ApiProperty({ default: 'en' }) language!: string;
  @ApiProperty() createdAt!: string;
  @ApiProperty({ type: String, nullable: true }) completedAt!: string | null;
  @ApiProperty({ description: 'One per query, on completion' }) credits!: number;
  @ApiProperty({ type: 'array', items: ref('RunResult') }) results!: RunResult[];
  @ApiProperty() pagesFetched!: number;
  @ApiProperty() pagesTarget!: number;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Markdown with [N] citations' }) report!: string | null;
  @ApiPropertyOptional({ type: 'array', nullable: true, items: ref('Finding') }) findings!: Finding[] | null;
  @ApiPropertyOptional({ type: 'array', nullable: true, items: ref('Source') }) sources!: Source[] | null;
  @ApiPropertyOptional({ oneOf: nullableOf('RunUsage').oneOf }) usage!: RunUsage | null;
  @ApiProperty({ type: String, nullable: true }) prompt!: string | null;
  @ApiProperty() reranked!: boolean;
  @ApiProperty({ type: 'array', items: ref('SkuLineItem') }) usage_items!: SkuLineItem[];
}
