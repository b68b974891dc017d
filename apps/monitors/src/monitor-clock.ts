import * as fs from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';

/**
 * The scheduler's time: the system clock, or (MONITOR_CLOCK_FILE, for tests and drills) the
 * ISO-8601 time written in a file, so weeks of cadence run in seconds and every replica reads the
 * same time.
 */
@Injectable()
export class MonitorClock {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  now(): string {
    const file = this.config.monitorClockFile;
    if (!file) return new Date().toISOString();
    const text = fs.readFileSync(file, 'utf8').trim();
    const at = Date.parse(text);
    if (!Number.isFinite(at)) throw new Error(`MONITOR_CLOCK_FILE ${file} does not hold an ISO-8601 time`);
    return new Date(at).toISOString();
  }
}
