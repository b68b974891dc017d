import { timeOrderedId } from '@app/eventstore';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { BusClient, BusReplyError, BusTimeoutError } from '@app/bus';
import { CONFIG, type Config } from '@app/config';
import { type ReplyOf, type RequestOf, type Subject, subjects } from '@app/contracts';
import type { RunKind } from '@app/domain';
import { foreground, RUN_KIND_LIST } from '@app/runs';
import { Projector, READ_STORE, type ReadStore, platformProjections, checkpointName } from '@app/readmodels';
import { ApiError, encodeKeyBudget, RequestValidationError, serviceUnavailable } from '@app/platform';
import type { AuthContext } from '../auth/auth.context';
import { KeyBudgetCheck } from '../auth/key-budget-check';

/** What a command handler replies with: its result and the log position of what it appended. */
export interface CommandReply {
  /** Global position (decimal string) of the last event the command appended, if any. */
  position?: string;
}

const RETRY_AFTER_S = 2;
const CHARGING = new Set<string>([subjects.search, subjects.extract, subjects.map, subjects.runMonitor]);
/** Read-your-writes over another process's read models: first look again after this, then twice as late, up to POLL_MAX_MS. */
const POLL_FIRST_MS = 5;
const POLL_MAX_MS = 80;

/**
 * The gateway's one way to call a service: headers carry the request, team and key ids; a bus
 * timeout becomes 503 + Retry-After and an error reply its HTTP status. A command's reply carries
 * its append position, and the answer waits (bounded by READ_YOUR_WRITES_MS) until the read
 * models have passed it, so a GET right after a POST never 404s.
 */
@Injectable()
export class ServiceCalls {
  constructor(
    private readonly bus: BusClient,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(RUN_KIND_LIST) private readonly kinds: readonly RunKind[],
    private readonly budgets: KeyBudgetCheck,
    @Optional() private readonly projector?: Projector,
  ) {}

  /** Subjects whose calls charge (a sync call, a run started or given more work): refused once the key's budget is spent. */
  private charges(subject: string): boolean {
    return CHARGING.has(subject) || /\.runs\.(start|reopen)$/.test(subject);
  }

  async call<Rep>(
    subject: string,
    payload: unknown,
    auth: AuthContext,
    requestId: string,
    timeoutMs?: number,
  ): Promise<Rep> {
    if (this.charges(subject)) await this.budgets.assertRoom(auth);
    try {
      return await this.bus.request<unknown, Rep>(subject, payload, {
        ...(timeoutMs !== undefined && { timeoutMs }),
        // charge_id: unique per call, so a client reusing an X-Request-Id is still charged each time.
        headers: {
          request_id: requestId,
          correlation_id: requestId,
          team_id: auth.team_id,
          key_id: auth.key_id,
          charge_id: timeOrderedId(),
          ...(auth.budget && { key_budget: encodeKeyBudget(auth.budget) }),
        },
      });
    } catch (error) {
      if (error instanceof BusTimeoutError)
        throw serviceUnavailable(RETRY_AFTER_S, 'The service did not answer in time; retry later');
      if (error instanceof BusReplyError) {
        if (error.status >= 500)
          throw new ApiError(error.status, error.status === 500 ? 'Internal Server Error' : error.detail);
        // A 422 always lists its errors (the API's validation shape), also when a service refused the request.
        if (error.status === 422 && typeof error.detail === 'string') {
          throw new RequestValidationError([
            { type: 'value_error', loc: ['body'], msg: `Value error, ${error.detail}`, input: null },
          ]);
        }
        throw new ApiError(error.status, error.detail);
      }
      throw error;
    }
  }

  async command<Rep extends CommandReply>(
    subject: string,
    payload: unknown,
    auth: AuthContext,
    requestId: string,
    timeoutMs?: number,
  ): Promise<Rep> {
    const reply = await this.call<Rep>(subject, payload, auth, requestId, timeoutMs);
    if (reply.position !== undefined) await this.readYourWrites(BigInt(reply.position));
    return reply;
  }

  /**
   * A command whose payload and reply types come from its subject's contract (libs/contracts);
   * `timeoutMs` for one whose service bounds its own longer work (an extract call), else BUS_TIMEOUT_MS.
   */
  send<S extends Subject>(
    subject: S,
    payload: RequestOf<S>,
    auth: AuthContext,
    requestId: string,
    timeoutMs?: number,
  ): Promise<ReplyOf<S>> {
    return this.command<ReplyOf<S> & CommandReply>(subject, payload, auth, requestId, timeoutMs);
  }

  /** True once every read model has applied `position`; false when the bounded wait ran out. */
  async readYourWrites(position: bigint): Promise<boolean> {
    // A request waits on the read models: task group runs in this process step aside meanwhile.
    const release = foreground.hold();
    try {
      return await this.waitForReadModels(position);
    } finally {
      release();
    }
  }

  private async waitForReadModels(position: bigint): Promise<boolean> {
    const timeoutMs = this.config.readYourWritesMs;
    if (this.projector) return this.projector.waitFor(position, timeoutMs);
    // Read models projected by another process (MongoDB): follow its saved checkpoints.
    const names = platformProjections(this.kinds).map((projection) => checkpointName('projector', projection));
    // One query per look, looking less often the longer it takes: every waiting request polls, so
    // a fixed fast poll of each checkpoint would load the store most exactly when it lags.
    const deadline = Date.now() + timeoutMs;
    for (let pause = POLL_FIRST_MS; ; pause = Math.min(POLL_MAX_MS, pause * 2)) {
      const checkpoints = await this.reads.getCheckpoints(names);
      if (names.every((name) => (checkpoints.get(name) ?? -1n) >= position)) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
  }
}
