import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BoolField, EnumField, IntField, StrField, UrlField, UrlListField } from '@app/platform';
import { EXTRACT_FORMATS, type ExtractFormatName } from '@app/contracts';

export class ExtractQuery {
  @UrlField({ anyScheme: true, description: 'Absolute URL of the page' })
  url!: string;

  @StrField({ optional: true, nullable: true, description: 'Focuses the excerpts on this goal' })
  objective?: string | null;

  @EnumField(EXTRACT_FORMATS, { default: 'markdown' })
  format!: ExtractFormatName;
}

export class ExtractBody {
  @UrlListField({ anyScheme: true, minItems: 1, maxItems: 20, description: '1 to 20 absolute URLs' })
  urls!: string[];

  @StrField({ optional: true, nullable: true, description: 'Focuses the excerpts on this goal' })
  objective?: string | null;

  @EnumField(EXTRACT_FORMATS, { default: 'markdown' })
  format!: ExtractFormatName;

  @BoolField({ default: true, description: 'Return the main content in `content`' })
  full_content!: boolean;

  @BoolField({ default: true, description: 'Return objective-focused excerpts' })
  excerpts!: boolean;

  @IntField({ ge: 100, optional: true, nullable: true, description: 'Cap on the characters of each result’s content' })
  max_chars_per_result?: number | null;
}

export class SkuUsageLine {
  @ApiProperty({ example: 'sku_extract' }) sku!: string;
  @ApiProperty() quantity!: number;
  @ApiProperty() credits!: number;
}

export class ExtractResult {
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) final_url!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the final response' }) status!: number | null;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ type: String, nullable: true }) content!: string | null;
  @ApiProperty({ type: [String] }) excerpts!: string[];
  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-03-01' }) published_date!: string | null;
  @ApiProperty({ type: String, nullable: true }) language!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why this URL could not be extracted' }) error!: string | null;
}

export class ExtractResponse {
  @ApiProperty({ type: [ExtractResult] }) results!: ExtractResult[];
  @ApiProperty({ description: '2 per extracted URL; failed URLs cost nothing' }) credits!: number;
  @ApiProperty({ type: [SkuUsageLine] }) usage!: SkuUsageLine[];
}
