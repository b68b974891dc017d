import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';

/**
 * A gateway replica stopped in turn (a rolling restart, a scale-down) fails nothing it took:
 * on SIGTERM it first says it is not ready (/readyz 503 "draining"), so the load balancer stops
 * sending it new requests; after SHUTDOWN_DELAY_SECONDS (the time a balancer needs to notice) it
 * ends its live streams (an SSE stream is ended, a WebSocket closed with 1012 "service restart"),
 * whose clients come back through the balancer to another replica and resume with Last-Event-ID
 * or `resume_from`; then the HTTP server closes, answering every request in flight before it
 * exits (Nest closes it after this hook).
 */
@Injectable()
export class GatewayDrain implements BeforeApplicationShutdown {
  private readonly logger = new Logger('GatewayDrain');
  private readonly ending = new AbortController();
  private _draining = false;

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  /** True from SIGTERM on: readiness answers 503. */
  get draining(): boolean {
    return this._draining;
  }

  /** Aborted when live streams must end: a stream follows it besides its own client's signal. */
  get streamsEnd(): AbortSignal {
    return this.ending.signal;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this._draining = true;
    const delayMs = this.config.shutdownDelayMs;
    this.logger.log(`draining: not ready; live streams end in ${delayMs} ms`);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    this.ending.abort();
  }
}
