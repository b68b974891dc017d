import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { StrField, UrlField } from '@app/platform/http';
import { Auth, type AuthContext, type AuthedRequest } from '../../../apps/gateway/src/auth/auth.context';
import { RunHttp } from '../../../apps/gateway/src/runs/run-http';
import { echoRuns, type EchoView } from './echo.kind';

class EchoBody {
  @StrField({ minLength: 1, maxLength: 1_000 }) text!: string;
  @UrlField({ optional: true, nullable: true }) webhook?: string | null;
}

/** The kind's route file: only creation; list, view, cancel, history and streams come from its registration. */
@Controller('v1/echoes')
export class EchoRoutes {
  constructor(private readonly runs: RunHttp) {}

  @Post()
  @HttpCode(202)
  async create(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: EchoBody): Promise<EchoView> {
    const id = await this.runs.request(echoRuns, auth, req.id, { text: body.text, webhook: body.webhook ?? null });
    return this.runs.viewAsRequested(echoRuns, auth, id);
  }
}
