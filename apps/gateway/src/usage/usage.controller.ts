import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { READ_STORE, type ReadStore } from '@app/readmodels';
import { USAGE_DAILY, type UsageDoc } from '@app/readmodels/projections';
import { RequestValidationError } from '@app/platform/http';
import { Auth, type AuthContext } from '../auth/auth.context';
import { UsageQuery, UsageResponse } from './usage.dto';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** GET /v1/usage: the team's charges per UTC day and SKU, from the usage projection. */
@ApiTags('Usage')
@ApiBearerAuth()
@Controller('v1/usage')
export class UsageController {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  @Get()
  @ApiOkResponse({ type: UsageResponse })
  async usage(@Auth() auth: AuthContext, @Query() query: UsageQuery): Promise<UsageResponse> {
    const to = query.to ?? isoDay(Date.now());
    const from = query.from ?? isoDay(Date.parse(to) - 29 * DAY_MS);
    if (from > to) {
      throw new RequestValidationError([
        {
          type: 'value_error',
          loc: ['query', 'from'],
          msg: 'Value error, from must be on or before to',
          input: from,
          ctx: { error: 'from must be on or before to' },
        },
      ]);
    }
    const rows = (await this.reads.find(
      USAGE_DAILY,
      { team_id: auth.team_id, date: { $gte: from, $lte: to } },
      { sort: { date: 1, sku: 1 } },
    )) as unknown as UsageDoc[];
    const days = rows.map(({ date, sku, quantity, credits }) => ({ date, sku, quantity, credits }));
    return { from, to, total_credits: days.reduce((sum, day) => sum + day.credits, 0), days };
  }
}
