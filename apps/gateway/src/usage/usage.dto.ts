import { ApiProperty } from '@nestjs/swagger';
import { DateField } from '@app/platform/http';

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
