import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BusClient } from '@app/bus';
import { CONFIG, type Config } from '@app/config';
import { type ExtractReply, type SearchPageReply, subjects } from '@app/contracts';
import { DomainError } from '@app/domain';
import { type DeepSearchParams, searchRunDecider, type SearchRunCommand, searchRunStream } from '@app/domain/search-run';
import { EVENT_STORE, type EventStore, handleCommand } from '@app/eventstore';
import { RESEARCH_MODEL, type ResearchModel } from '@app/providers/llm/research';
import { runResearch } from '@app/research';
import { type RunInfo, RunRegistry } from './run-registry';

/** Work of one run in this process: the flag the pipeline polls between steps. */
interface Active {
  stop: 'cancel' | 'lease-lost' | 'shutdown' | null;
  heartbeat: NodeJS.Timeout;
}

const TICK_MS = 250;
const MAX_LOCAL_RUNS = 8;

/**
 * The research service's worker. It follows the unfinished runs in the log and, on every tick:
 * takes over runs whose worker stopped heartbeating (lease expired: resume from their events), and
 * starts queued runs in request order while their team runs fewer than
 * MAX_CONCURRENT_RUNS_PER_TEAM. Starting is an append at the revision read, so among replicas one
 * wins. A run's pipeline records each step as an event; recording a fact twice decides nothing,
 * so a resumed run appends only what is new (pages come back from the extraction cache).
 */
@Injectable()
export class RunWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RunWorker');
  readonly workerId = `research-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly registry: RunRegistry;
  private readonly active = new Map<string, Active>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private stopping = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RESEARCH_MODEL) private readonly model: ResearchModel,
    private readonly bus: BusClient,
  ) {
    this.registry = new RunRegistry(store, (searchId, run, event) => {
      // A cancel (requested, or already final) stops the pipeline before its next step.
      const active = this.active.get(searchId);
      if (active && (run?.cancel_requested || event.type === 'SearchRunCancelled')) active.stop ??= 'cancel';
      this.kick();
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.registry.start();
    this.timer = setInterval(() => this.kick(), TICK_MS);
    this.timer.unref();
    this.kick();
  }

  /** Drain: take no new run, stop the pipelines between steps; their leases lapse and another worker resumes them. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    for (const active of this.active.values()) active.stop ??= 'shutdown';
    const deadline = Date.now() + 10_000;
    while (this.active.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await this.registry.stop();
  }

  private kick(): void {
    if (this.ticking || this.stopping) return;
    this.ticking = true;
    this.tick()
      .catch((error: unknown) => this.logger.error({ msg: 'scheduling failed', err: (error as Error).message }))
      .finally(() => (this.ticking = false));
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    const runs = [...this.registry.runs.values()];
    for (const run of runs) {
      if (run.status !== 'running' || run.lease_until > now || this.active.has(run.search_id)) continue;
      // Its worker died: a cancelled run only needs confirming, any other run is resumed here.
      if (run.cancel_requested) await this.command(run.search_id, { type: 'ConfirmCancelled' }).catch(() => undefined);
      else if (this.active.size < MAX_LOCAL_RUNS) await this.take(run, true);
    }
    const runningPerTeam = new Map<string, number>();
    for (const run of runs) if (run.status === 'running') runningPerTeam.set(run.team_id, (runningPerTeam.get(run.team_id) ?? 0) + 1);
    const queued = runs.filter((run) => run.status === 'queued').sort((a, b) => (a.requested_at < b.requested_at ? -1 : 1));
    for (const run of queued) {
      if (this.active.size >= MAX_LOCAL_RUNS) return;
      const running = runningPerTeam.get(run.team_id) ?? 0;
      if (running >= this.config.maxConcurrentRunsPerTeam) continue;
      if (await this.take(run, false)) runningPerTeam.set(run.team_id, running + 1);
    }
  }

  /** Starts (or takes over) a run; false when another worker got it first. */
  private async take(run: RunInfo, takeover: boolean): Promise<boolean> {
    try {
      const { events } = await this.command(run.search_id, { type: 'StartSearchRun', worker_id: this.workerId, lease_seconds: this.config.runLeaseSeconds });
      if (events.length === 0) return false;
    } catch (error) {
      if (error instanceof DomainError) return false;
      throw error;
    }
    this.logger.log({ msg: takeover ? 'run taken over' : 'run started', search_id: run.search_id, worker_id: this.workerId });
    const active: Active = { stop: null, heartbeat: setInterval(() => void this.heartbeat(run.search_id, active), (this.config.runLeaseSeconds * 1000) / 3) };
    this.active.set(run.search_id, active);
    void this.execute(run.search_id, active).finally(() => {
      clearInterval(active.heartbeat);
      this.active.delete(run.search_id);
      this.kick();
    });
    return true;
  }

  private async heartbeat(searchId: string, active: Active): Promise<void> {
    try {
      await this.command(searchId, { type: 'Heartbeat', worker_id: this.workerId, lease_seconds: this.config.runLeaseSeconds });
    } catch (error) {
      if (error instanceof DomainError) active.stop ??= 'lease-lost';
      else this.logger.warn({ msg: 'heartbeat failed', search_id: searchId, err: (error as Error).message });
    }
  }

  private command(searchId: string, command: SearchRunCommand) {
    return handleCommand(this.store, searchRunStream(searchId), searchRunDecider, command, {
      metadata: { correlation_id: searchId, causation_id: this.workerId },
    });
  }

  private async execute(searchId: string, active: Active): Promise<void> {
    const worker_id = this.workerId;
    const [requested] = await this.store.readStream(searchRunStream(searchId), { maxCount: 1 });
    const params = (requested.data as { params: DeepSearchParams }).params;
    const record = (command: SearchRunCommand) => this.command(searchId, command).then(() => undefined);
    if (this.registry.runs.get(searchId)?.cancel_requested) active.stop = 'cancel';
    try {
      const outcome = await runResearch(
        {
          prompt: params.prompt ?? params.queries.join('; '),
          queries: params.queries,
          objective: params.objective,
          maxSubqueries: params.max_subqueries,
          maxFetches: params.max_fetches,
          limit: params.limit,
          country: params.country,
          language: params.language,
        },
        {
          search: (query, page) =>
            this.bus.request<object, SearchPageReply>(subjects.searchPage, { query, page, limit: 10, country: params.country, language: params.language }),
          read: async (urls) => {
            const reply = await this.bus.request<object, ExtractReply>(
              subjects.read,
              { urls, objective: params.objective, format: 'text', full_content: true, excerpts: false, max_chars_per_result: null },
              { timeoutMs: 60_000 },
            );
            return reply.results.map((r) => ({ url: r.url, title: r.title ?? r.url, text: r.content ?? '', error: r.error }));
          },
          model: this.model,
        },
        {
          planned: (subqueries, pages_target) => record({ type: 'RecordPlan', worker_id, subqueries, pages_target }),
          serpPage: (subquery, page, hits) => record({ type: 'RecordSerpPage', worker_id, subquery, page, hits }),
          pageFetched: (url, ok, title, error) => record({ type: 'RecordPageFetched', worker_id, url, ok, title, error }),
          findingGraded: (finding) => record({ type: 'RecordFinding', worker_id, finding }),
          resultsMerged: (results, reranked) => record({ type: 'RecordResults', worker_id, results, reranked }),
          stopped: () => active.stop !== null,
        },
      );
      if (active.stop === 'cancel') {
        await record({ type: 'ConfirmCancelled', worker_id });
      } else if (active.stop === null && !outcome.stopped && outcome.report !== null) {
        await record({ type: 'RecordReport', worker_id, report: outcome.report, findings: outcome.findings, sources: outcome.sources, usage: outcome.usage });
        await record({ type: 'CompleteSearchRun', worker_id });
        this.logger.log({ msg: 'run completed', search_id: searchId });
      }
    } catch (error) {
      // Stopped for a reason that is not a failure: a cancel that ended the run, a lost lease, a drain.
      if (active.stop !== null) {
        if (active.stop === 'cancel') await record({ type: 'ConfirmCancelled', worker_id }).catch(() => undefined);
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error({ msg: 'run failed', search_id: searchId, err: reason });
      await record({ type: 'FailSearchRun', worker_id, error: `research failed: ${reason}` }).catch(() => undefined);
    }
  }
}
