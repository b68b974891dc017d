import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { READ_STORE, type ReadStore, charges, usageDaily } from '@app/readmodels';
import { notFound, RequestValidationError } from '@app/platform';
import { Auth, type AuthContext } from '../auth/auth.context';
import { ChargeParams, ChargeResponse, UsageQuery, UsageResponse } from './usage.dto';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * GET /v1/usage: the team's charges per UTC day and SKU, from the usage projection.
 * GET /v1/usage/requests/{request_id}: what one request (its X-Request-Id) cost; only the
 * caller's team's charges are searched, so another team's request id is a 404.
 */
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
    const rows = await usageDaily.find(
      this.reads,
      { team_id: auth.team_id, date: { $gte: from, $lte: to } },
      { sort: { date: 1, sku: 1 } },
    );
    const days = rows.map(({ date, sku, quantity, credits }) => ({ date, sku, quantity, credits }));
    return { from, to, total_credits: days.reduce((sum, day) => sum + day.credits, 0), days };
  }

  @Get('requests/:request_id')
  @ApiOkResponse({ type: ChargeResponse })
  async charge(@Auth() auth: AuthContext, @Param() params: ChargeParams): Promise<ChargeResponse> {
    const found = await charges.find(
      this.reads,
      { request_id: params.request_id, team_id: auth.team_id },
      { sort: { at: 1 } },
    );
    if (found.length === 0) throw notFound(`No charge recorded for request ${params.request_id}`);
    const usage = new Map<string, { sku: string; quantity: number; credits: number }>();
    for (const item of found.flatMap((charge) => charge.items)) {
      const line = usage.get(item.sku) ?? { sku: item.sku, quantity: 0, credits: 0 };
      usage.set(item.sku, {
        sku: item.sku,
        quantity: line.quantity + item.quantity,
        credits: line.credits + item.credits,
      });
    }
    return {
      request_id: params.request_id,
      at: found[0]!.at,
      credits: found.reduce((sum, charge) => sum + charge.credits, 0),
      charges: found.length,
      usage: [...usage.values()],
    };
  }
}
