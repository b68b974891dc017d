import { ApiProperty } from '@nestjs/swagger';
import { DateField, StrField } from '@app/platform';

export class UsageQuery {
  @DateField({ optional: true, description: 'First day (UTC, inclusive); default 29 days before `to`' })
  from?: string;

  @DateField({ optional: true, description: 'Last day (UTC, inclusive); default today' })
  to?: string;
}

export class UsageDay {
  @ApiProperty({ example: '2026-01-31' }) date!: string;
  @ApiProperty({ example: 'sku_search' }) sku!: string;
  @ApiProperty() quantity!: number;
  @ApiProperty() credits!: number;
}

export class UsageResponse {
  @ApiProperty({ example: '2026-01-01' }) from!: string;
  @ApiProperty({ example: '2026-01-31' }) to!: string;
  @ApiProperty() total_credits!: number;
  @ApiProperty({ type: [UsageDay] }) days!: UsageDay[];
}

export class ChargeParams {
  @StrField({ pattern: '^[A-Za-z0-9._-]{1,128}$', description: 'The X-Request-Id of a charged request' })
  request_id!: string;
}

export class SkuLine {
  @ApiProperty({ example: 'sku_search' }) sku!: string;
  @ApiProperty() quantity!: number;
  @ApiProperty() credits!: number;
}

export class ChargeResponse {
  @ApiProperty() request_id!: string;
  @ApiProperty({ description: 'When the first charge was recorded (ISO-8601)' }) at!: string;
  @ApiProperty() credits!: number;
  @ApiProperty({ description: 'Charges recorded under this request id (a client may reuse an id)' }) charges!: number;
  @ApiProperty({ type: [SkuLine] }) usage!: SkuLine[];
}
