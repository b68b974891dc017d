import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BoolField, EnumField, IntField, StrField, UrlField, UrlListField } from '@app/platform';
import { EXTRACT_FORMATS, type ExtractFormatName, RENDER_MODES, type RenderMode } from '@app/contracts';

const RENDER_DESCRIPTION =
  'Render the page in a headless browser first: `auto` when its HTML reads thin and has scripts that would fill it (without a browser: as fetched), `always` (without a browser: this URL’s error), `never`. PDFs and Word files are never rendered';

export class ExtractQuery {
  @UrlField({ anyScheme: true, description: 'Absolute URL of the page' })
  url!: string;

  @StrField({ optional: true, nullable: true, description: 'Focuses the excerpts on this goal' })
  objective?: string | null;

  @EnumField(EXTRACT_FORMATS, { default: 'markdown' })
  format!: ExtractFormatName;

  @EnumField(RENDER_MODES, { default: 'auto', description: RENDER_DESCRIPTION })
  render!: RenderMode;
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

  @EnumField(RENDER_MODES, { default: 'auto', description: RENDER_DESCRIPTION })
  render!: RenderMode;
}

export class SkuUsageLine {
  @ApiProperty({ example: 'sku_extract' }) sku!: string;
  @ApiProperty() quantity!: number;
  @ApiProperty() credits!: number;
}

export class ExtractResult {
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) final_url!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the final response' }) status!:
    number | null;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ type: String, nullable: true }) content!: string | null;
  @ApiProperty({ type: [String] }) excerpts!: string[];
  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-03-01' }) published_date!: string | null;
  @ApiProperty({ type: String, nullable: true }) language!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'application/pdf',
    description: 'What the URL was read as: `text/html`, `application/pdf`, the Word (.docx) type, ...; null on error',
  })
  content_type!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'A PDF’s page count; null for other documents' }) pages!:
    number | null;
  @ApiPropertyOptional({
    type: [Number],
    description: 'PDFs with `format: text`: the offset in `content` where each page starts (page 1 at 0)',
  })
  page_starts?: number[];
  @ApiProperty({ type: String, nullable: true, description: 'Why this URL could not be extracted' }) error!:
    string | null;
}

export class ExtractResponse {
  @ApiProperty({ type: [ExtractResult] }) results!: ExtractResult[];
  @ApiProperty({ description: '2 per extracted URL; failed URLs cost nothing' }) credits!: number;
  @ApiProperty({ type: [SkuUsageLine] }) usage!: SkuUsageLine[];
}
