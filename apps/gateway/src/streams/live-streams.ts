import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { tooManyRequests } from '@app/platform';

/** Gives back a stream taken with `LiveStreams.take`; a second call does nothing. */
export type Release = () => void;

/**
 * How many live streams each API key holds open at once in this gateway: SSE and WebSocket
 * streams, streamed and waiting chat completions, waits for a monitor run's event, and
 * create-and-wait waits. Past `LIVE_STREAMS_PER_KEY` a new one is a 429 naming the bound (a
 * create-and-wait POST answers 202 at once instead of waiting: its run exists already).
 */
@Injectable()
export class LiveStreams {
  private readonly open = new Map<string, number>();

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  get limit(): number {
    return this.config.liveStreamsPerKey;
  }

  /** One of the key's streams, or a 429 when it holds the most it may. */
  take(keyId: string): Release {
    const release = this.tryTake(keyId);
    if (!release) {
      throw tooManyRequests(
        1,
        {},
        `at most ${this.limit} live streams (SSE, WebSocket, waits) may be open at once per API key (LIVE_STREAMS_PER_KEY); close one first`,
      );
    }
    return release;
  }

  /** One of the key's streams, or undefined when it holds the most it may. */
  tryTake(keyId: string): Release | undefined {
    const held = this.open.get(keyId) ?? 0;
    if (held >= this.limit) return undefined;
    this.open.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.open.get(keyId) ?? 1) - 1;
      if (now <= 0) this.open.delete(keyId);
      else this.open.set(keyId, now);
    };
  }
}
