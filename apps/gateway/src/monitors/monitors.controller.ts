import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { type RequestOf, subjects } from '@app/contracts';
import {
  monitorDecider,
  type MonitorEvent,
  MonitorEventSchema,
  monitorStream,
  monitorView,
  type MonitorView,
  MonitorViewSchema,
  shortestCronGapMinutes,
} from '@app/domain';
import { CONFIG, type Config } from '@app/config';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { ApiError, notFound, RequestValidationError, tooManyRequests, SecretBox } from '@app/platform';
import { READ_STORE, type ReadStore, monitorEvents, type MonitorDoc, monitors } from '@app/readmodels';
import { AnswersWithin } from '../http/answer-wait';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { RunHttp } from '../runs/run-http';
import type { RunHistory } from '../runs/run-responses';
import { LiveStreams } from '../streams/live-streams';
import type { FastifyRequest } from 'fastify';
import { contractRef, runList } from '../openapi/contract-schemas';
import { RunHistorySchema } from '../runs/run-responses';
import { MonitorBody, MonitorEventsQuery, MonitorIdParams, MonitorListQuery, MonitorPatchBody } from './monitors.dto';

const monitor = contractRef(MonitorViewSchema);
const monitorEvent = contractRef(MonitorEventSchema);

/** How long POST .../run waits for the run's event. */
const RUN_WAIT_MS = 60_000;
const SETTINGS = [
  'query',
  'cadence',
  'cron',
  'mode',
  'filter_prompt',
  'notify_on',
  'webhook',
  'webhook_max_attempts',
  'webhook_backoff_seconds',
  'country',
  'language',
  'metadata',
] as const;

/**
 * Monitors (spec "Monitor"; API.md routes): the monitors service owns them; this serves the read
 * model and the log. A webhook secret is sealed here, so it crosses the bus and rests encrypted.
 */
@ApiTags('Monitors')
@ApiBearerAuth()
@Controller('v1/monitors')
export class MonitorsController {
  constructor(
    private readonly calls: ServiceCalls,
    private readonly runs: RunHttp,
    private readonly streams: LiveStreams,
    private readonly box: SecretBox,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create monitor (it first runs at its next slot; POST .../run runs it now)' })
  @ApiCreatedResponse({ schema: monitor })
  async create(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: MonitorBody): Promise<MonitorView> {
    this.assertInterval(body.cron);
    const watched = this.watched(body);
    // Counted in the shared read model, so across gateway replicas.
    const held = await monitors.count(this.reads, { team_id: auth.team_id, status: { $in: ['active', 'paused'] } });
    if (held >= this.config.maxMonitorsPerTeam) {
      throw tooManyRequests(
        60,
        {},
        `at most ${this.config.maxMonitorsPerTeam} monitors may be held by a team (MAX_MONITORS_PER_TEAM); it holds ${held}: delete one first`,
      );
    }
    const settings: RequestOf<typeof subjects.createMonitor>['settings'] = {
      ...watched,
      cadence: body.cadence,
      cron: body.cron ?? null,
      mode: body.mode,
      filter_prompt: body.filter_prompt ?? null,
      notify_on: [...new Set(body.notify_on)],
      webhook: body.webhook ?? null,
      webhook_max_attempts: body.webhook_max_attempts,
      webhook_backoff_seconds: body.webhook_backoff_seconds,
      country: body.country.toLowerCase(),
      language: body.language.toLowerCase(),
      metadata: body.metadata,
    };
    const sealed = body.webhook_secret ? this.box.seal(body.webhook_secret) : null;
    const { monitor_id } = await this.calls.send(
      subjects.createMonitor,
      { settings, status: body.status, sealed_webhook_secret: sealed },
      auth,
      req.id,
    );
    return this.live(auth, monitor_id, true);
  }

  @Get()
  @ApiOperation({ summary: 'List monitors (newest first)' })
  @ApiOkResponse({ schema: runList('monitors', monitor) })
  async list(@Auth() auth: AuthContext, @Query() query: MonitorListQuery) {
    const filter = { team_id: auth.team_id, status: query.status ?? { $in: ['active', 'paused'] } };
    const [docs, total] = await Promise.all([
      monitors.find(this.reads, filter, { sort: { created_at: -1, _id: -1 }, skip: query.offset, limit: query.limit }),
      monitors.count(this.reads, filter),
    ]);
    return { monitors: docs.map((doc) => monitorView(doc.state)), total, limit: query.limit, offset: query.offset };
  }

  @Get(':monitor_id')
  @ApiOperation({ summary: 'Retrieve a monitor' })
  @ApiOkResponse({ schema: monitor })
  view(@Auth() auth: AuthContext, @Param() params: MonitorIdParams): Promise<MonitorView> {
    return this.live(auth, params.monitor_id);
  }

  @Patch(':monitor_id')
  @ApiOperation({ summary: 'Update monitor (partial; webhook_secret: null clears it)' })
  @ApiOkResponse({ schema: monitor })
  async update(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: MonitorIdParams,
    @Body() body: MonitorPatchBody,
  ): Promise<MonitorView> {
    this.assertInterval(body.cron);
    const current = await this.live(auth, params.monitor_id);
    const settings: Record<string, unknown> = Object.fromEntries(
      SETTINGS.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]),
    );
    // A page monitor changes its page (its query follows), a query monitor its query.
    const wrong =
      current.url === null
        ? body.url !== undefined
          ? 'url'
          : null
        : body.query !== undefined
          ? 'query'
          : body.filter_prompt
            ? 'filter_prompt'
            : null;
    if (wrong) {
      const msg =
        current.url === null
          ? 'a query monitor watches its query: url cannot be set on it'
          : `a page monitor watches its url: ${wrong} cannot be set on it`;
      throw new RequestValidationError([
        { type: 'value_error', loc: ['body', wrong], msg: `Value error, ${msg}`, input: body[wrong] ?? null },
      ]);
    }
    if (body.url !== undefined) Object.assign(settings, { url: body.url, query: body.url });
    if (typeof settings.country === 'string') settings.country = settings.country.toLowerCase();
    const secret =
      body.webhook_secret === undefined
        ? undefined
        : body.webhook_secret === null
          ? null
          : this.box.seal(body.webhook_secret);
    await this.calls.send(
      subjects.updateMonitor,
      {
        monitor_id: params.monitor_id,
        settings,
        ...(secret !== undefined && { sealed_webhook_secret: secret }),
        ...(body.status && { status: body.status }),
      },
      auth,
      req.id,
    );
    return this.live(auth, params.monitor_id, true);
  }

  /** Exactly one of query and url (a 422 naming them otherwise); a page monitor takes no filter_prompt. */
  private watched(body: MonitorBody): { query: string; url: string | null } {
    const error = (loc: string, msg: string) =>
      new RequestValidationError([
        { type: 'value_error', loc: ['body', loc], msg: `Value error, ${msg}`, input: null },
      ]);
    if ((body.query === undefined) === (body.url === undefined))
      throw error(body.url === undefined ? 'query' : 'url', 'a monitor watches exactly one of query and url');
    if (body.url !== undefined && body.filter_prompt)
      throw error('filter_prompt', 'a page monitor (url) takes no filter_prompt');
    return body.url !== undefined ? { query: body.url, url: body.url } : { query: body.query!, url: null };
  }

  /** A cron that runs more often than MONITOR_MIN_INTERVAL_MINUTES is a 422 naming the field and the bound. */
  private assertInterval(cron: string | null | undefined): void {
    if (!cron) return;
    const gap = shortestCronGapMinutes(cron);
    const min = this.config.monitorMinIntervalMinutes;
    if (gap < min) {
      throw new RequestValidationError([
        {
          type: 'value_error',
          loc: ['body', 'cron'],
          msg: `Value error, the cron runs as often as every ${gap} minutes; a monitor may run at most every ${min} minutes (MONITOR_MIN_INTERVAL_MINUTES)`,
          input: cron,
          ctx: { min_interval_minutes: min },
        },
      ]);
    }
  }

  @Delete(':monitor_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete monitor (its events and history stay readable)' })
  @ApiNoContentResponse({ description: 'Deleted; its events and history stay readable' })
  async remove(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Param() params: MonitorIdParams): Promise<void> {
    await this.live(auth, params.monitor_id);
    await this.calls.send(subjects.deleteMonitor, { monitor_id: params.monitor_id }, auth, req.id);
  }

  @Post(':monitor_id/pause')
  @HttpCode(200)
  @ApiOperation({ summary: 'Monitor Pause (idempotent): nextRunAt becomes null' })
  @ApiOkResponse({ schema: monitor })
  async pause(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: MonitorIdParams,
  ): Promise<MonitorView> {
    await this.live(auth, params.monitor_id);
    await this.calls.send(subjects.pauseMonitor, { monitor_id: params.monitor_id }, auth, req.id);
    return this.live(auth, params.monitor_id, true);
  }

  @Post(':monitor_id/resume')
  @HttpCode(200)
  @ApiOperation({ summary: 'Monitor Resume (idempotent): scheduling restarts from now' })
  @ApiOkResponse({ schema: monitor })
  async resume(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: MonitorIdParams,
  ): Promise<MonitorView> {
    await this.live(auth, params.monitor_id);
    await this.calls.send(subjects.resumeMonitor, { monitor_id: params.monitor_id }, auth, req.id);
    return this.live(auth, params.monitor_id, true);
  }

  @Post(':monitor_id/run')
  @AnswersWithin(() => RUN_WAIT_MS)
  @HttpCode(202)
  @ApiOperation({ summary: 'Run monitor now (also when paused): 202 with the monitor event once recorded' })
  @ApiAcceptedResponse({ schema: monitorEvent })
  async run(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest & FastifyRequest,
    @Param() params: MonitorIdParams,
  ): Promise<MonitorEvent> {
    await this.live(auth, params.monitor_id);
    // Waiting for the run's event holds a live stream of the key's, taken before the run starts;
    // the wait ends at RUN_WAIT_MS or when the client goes away.
    const release = this.streams.take(auth.key_id);
    const subscription = this.events.subscribeToStream(monitorStream(params.monitor_id));
    const timer = setTimeout(() => void subscription.close(), RUN_WAIT_MS);
    const onClose = () => void subscription.close();
    req.raw.once('close', onClose);
    try {
      const { event_id } = await this.calls.send(subjects.runMonitor, { monitor_id: params.monitor_id }, auth, req.id);
      for await (const event of subscription) {
        const recorded =
          event.type === 'MonitorEventRecorded' ? (event.data as { event: MonitorEvent }).event : undefined;
        if (recorded?.event_id === event_id) {
          await this.calls.readYourWrites(event.position);
          return recorded;
        }
      }
      throw new ApiError(
        504,
        `Monitor run ${event_id} did not record its event within ${RUN_WAIT_MS / 1000} s; it shows in /events when it does`,
      );
    } finally {
      clearTimeout(timer);
      req.raw.off('close', onClose);
      release();
      await subscription.close();
    }
  }

  @Get(':monitor_id/events')
  @ApiOperation({ summary: 'List monitor events (newest first); readable after a delete' })
  @ApiOkResponse({ schema: runList('events', monitorEvent) })
  async listEvents(@Auth() auth: AuthContext, @Param() params: MonitorIdParams, @Query() query: MonitorEventsQuery) {
    await this.owned(auth, params.monitor_id);
    const filter = { monitor_id: params.monitor_id };
    const [docs, total] = await Promise.all([
      monitorEvents.find(this.reads, filter, { sort: { seq: -1 }, skip: query.offset, limit: query.limit }),
      monitorEvents.count(this.reads, filter),
    ]);
    return { events: docs.map((doc) => doc.event), total, limit: query.limit, offset: query.offset };
  }

  @Get(':monitor_id/history')
  @ApiOperation({ summary: 'Every event of the monitor, oldest first (audit); readable after a delete' })
  @ApiOkResponse({ schema: contractRef(RunHistorySchema) })
  async history(@Auth() auth: AuthContext, @Param() params: MonitorIdParams): Promise<RunHistory> {
    await this.owned(auth, params.monitor_id);
    return this.runs.streamHistory(monitorStream(params.monitor_id));
  }

  /** The read model's document, waiting for it when the monitor was created through another replica a moment ago. */
  private async read(auth: AuthContext, monitorId: string): Promise<MonitorDoc | undefined> {
    const doc = await monitors.get(this.reads, monitorId);
    if (doc || !(await this.runs.recordedElsewhere(monitorStream(monitorId), monitorDecider, auth))) return doc;
    return monitors.get(this.reads, monitorId);
  }

  /** The monitor's document, deleted or not; 404 for another team's. */
  private async owned(auth: AuthContext, monitorId: string): Promise<MonitorDoc> {
    const doc = await this.read(auth, monitorId);
    if (!doc || doc.team_id !== auth.team_id) throw notFound(`Monitor ${monitorId} not found`);
    return doc;
  }

  /** A live monitor's view; 404 once deleted. After a write the read model may lag: 503 rather than a stale answer. */
  private async live(auth: AuthContext, monitorId: string, afterWrite = false): Promise<MonitorView> {
    const doc = await this.read(auth, monitorId);
    if ((!doc || doc.team_id !== auth.team_id) && afterWrite)
      throw new ApiError(503, `Monitor ${monitorId} was recorded but is not readable yet; retry shortly`, {
        'Retry-After': '1',
      });
    if (!doc || doc.team_id !== auth.team_id || doc.status === 'deleted')
      throw notFound(`Monitor ${monitorId} not found`);
    return monitorView(doc.state);
  }
}
