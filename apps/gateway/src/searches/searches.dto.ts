import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IntField, StrField } from '@app/platform/http';

export class ListQuery {
  @IntField({ ge: 1, le: 100, default: 5 }) limit!: number;
  @IntField({ ge: 0, default: 0 }) offset!: number;
}

export class SearchRunParams {
  @StrField({ minLength: 1, maxLength: 200 }) search_id!: string;
}

export class StreamQuery {
  @StrField({ optional: true, pattern: '^\\d{1,19}$', description: 'Resume after this event id (or send Last-Event-ID)' })
  last_event_id?: string;
}

export class SearchRunListItem {
  @ApiProperty() id!: string;
  @ApiProperty() query!: string;
  @ApiProperty({ enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] }) status!: string;
  @ApiProperty() createdAt!: string;
  @ApiProperty({ type: String, nullable: true }) completedAt!: string | null;
  @ApiProperty() resultCount!: number;
}

export class SearchRunList {
  @ApiProperty({ type: [SearchRunListItem] }) searches!: SearchRunListItem[];
  @ApiProperty() total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
}

export class SearchRunView {
  @ApiProperty() search_id!: string;
  @ApiProperty({ enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] }) status!: string;
  @ApiProperty({ type: [String] }) queries!: string[];
  @ApiProperty() limit!: number;
  @ApiProperty({ default: 'deep' }) depth!: string;
  @ApiProperty({ default: 'us' }) country!: string;
  @ApiProperty({ default: 'en' }) language!: string;
  @ApiProperty({ type: String, nullable: true }) createdAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) completedAt!: string | null;
  @ApiProperty({ description: 'One per query, on completion' }) credits!: number;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } }) results!: Record<string, unknown>[];
  @ApiProperty() pagesFetched!: number;
  @ApiProperty() pagesTarget!: number;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Markdown with [N] citations' }) report!: string | null;
  @ApiPropertyOptional({ type: 'array', nullable: true, items: { type: 'object', additionalProperties: true } }) findings!: Record<string, unknown>[] | null;
  @ApiPropertyOptional({ type: 'array', nullable: true, items: { type: 'object', additionalProperties: true } }) sources!: Record<string, unknown>[] | null;
  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: true }) usage!: Record<string, unknown> | null;
  @ApiProperty({ type: String, nullable: true }) prompt!: string | null;
  @ApiProperty() reranked!: boolean;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } }) usage_items!: Record<string, unknown>[];
}
