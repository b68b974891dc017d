import { CronTime, validateCronExpression } from 'cron';
import { CronExpressionParser } from 'cron-parser';

/**
 * When a monitor is due (API.md "Monitor"): a 5-field cron expression read in UTC, or the cadence
 * counted from the monitor's creation (hourly, daily, weekly). Pure: time comes in as arguments.
 */
export const CADENCES = ['hourly', 'daily', 'weekly'] as const;
export type Cadence = (typeof CADENCES)[number];

export const CADENCE_MS: Record<Cadence, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 7 * 86_400_000 };

/** Why a cron expression is refused, or null when it is a valid 5-field expression. */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5)
    return `a cron expression has 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  const checked = validateCronExpression(expression.trim());
  if (!checked.valid) return checked.error?.message ?? 'invalid cron expression';
  // A day that never comes (`0 0 31 2 *`) is valid syntax, but the monitor would never be due and
  // its next run could not be named.
  try {
    new CronTime(expression.trim(), 'UTC').getNextDateFrom(new Date(), 'UTC');
  } catch {
    return 'the cron expression never runs: no date matches it';
  }
  return null;
}

/**
 * The shortest gap, in minutes, between two runs of a cron expression (read in UTC), worked out
 * from its fields (cron-parser) rather than by listing runs: the times of day it runs, and the
 * days of a leap year it runs on (day of month and month, and day of week, joined as cron does:
 * either, when both are restricted). `0 * * * *` is 60, `5,10 9 * * *` is 5, `0 0 * * 1` 10,080.
 */
export function shortestCronGapMinutes(expression: string): number {
  let fields: ReturnType<typeof CronExpressionParser.parse>['fields'];
  try {
    ({ fields } = CronExpressionParser.parse(expression.trim(), { tz: 'UTC' }));
  } catch {
    // cron-parser refuses some expressions the `cron` package (the scheduler's) accepts, such as a
    // day that never comes (`0 0 31 2 *`): measure those by their runs instead.
    return gapOfRuns(expression);
  }
  const times = fields.hour.values
    .flatMap((h) => fields.minute.values.map((m) => Number(h) * 60 + Number(m)))
    .sort((a, b) => a - b);
  let shortest = Infinity;
  for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, times[i]! - times[i - 1]!);
  const months = new Set(fields.month.values.map(Number));
  const monthDays = new Set(fields.dayOfMonth.values.map(String));
  const weekDays = new Set(fields.dayOfWeek.values.map((d) => Number(d) % 7));
  const domRestricted = !fields.dayOfMonth.isWildcard;
  const dowRestricted = !fields.dayOfWeek.isWildcard;
  const runsOn = (day: Date) => {
    const dom = monthDays.has(String(day.getUTCDate()));
    const dow = weekDays.has(day.getUTCDay());
    const byDay = domRestricted && dowRestricted ? dom || dow : domRestricted ? dom : dowRestricted ? dow : true;
    return months.has(day.getUTCMonth() + 1) && byDay;
  };
  // Two runs on different days: the last of one day to the first of the next day it runs on.
  let previous: number | undefined;
  for (let d = 0; d < 366 + 7; d++) {
    if (!runsOn(new Date(Date.UTC(2028, 0, 1 + d)))) continue;
    if (previous !== undefined)
      shortest = Math.min(shortest, (d - previous) * 1_440 - times[times.length - 1]! + times[0]!);
    previous = d;
  }
  return shortest;
}

/** The shortest gap between the first 50 runs from 2028 (minutes); Infinity for an expression that never runs. */
function gapOfRuns(expression: string): number {
  const cron = new CronTime(expression.trim(), 'UTC');
  let shortest = Infinity;
  try {
    let previous = cron.getNextDateFrom(new Date('2028-01-01T00:00:00.000Z'), 'UTC').toMillis();
    for (let i = 0; i < 50; i++) {
      const next = cron.getNextDateFrom(new Date(previous), 'UTC').toMillis();
      shortest = Math.min(shortest, (next - previous) / 60_000);
      previous = next;
    }
  } catch {
    // No run within the years the package looks ahead: it never runs.
  }
  return shortest;
}

export interface Schedule {
  cadence: Cadence;
  cron: string | null;
  /** Cadence slots count from here (the monitor's creation). */
  anchor: string;
}

/** The first due slot strictly after `after` (ISO). */
export function nextSlot(schedule: Schedule, after: string): string {
  if (schedule.cron) {
    return new CronTime(schedule.cron.trim(), 'UTC')
      .getNextDateFrom(new Date(after), 'UTC')
      .toUTC()
      .toISO()!
      .replace(/\.\d{3}Z$/, '.000Z');
  }
  const period = CADENCE_MS[schedule.cadence];
  const anchor = Date.parse(schedule.anchor);
  const elapsed = Date.parse(after) - anchor;
  const k = Math.max(1, Math.floor(elapsed / period) + 1);
  return new Date(anchor + k * period).toISOString();
}

/**
 * The due slots in (after, now]: how many, and the latest. A replica that was down catches up with
 * one run standing for all of them. Counting stops at `cap` (a monitor idle for years).
 */
export function dueSlots(
  schedule: Schedule,
  after: string,
  now: string,
  cap = 100_000,
): { count: number; latest: string | null } {
  const end = Date.parse(now);
  if (!schedule.cron) {
    const period = CADENCE_MS[schedule.cadence];
    const anchor = Date.parse(schedule.anchor);
    const from = Math.floor((Date.parse(after) - anchor) / period);
    const to = Math.floor((end - anchor) / period);
    const count = Math.min(cap, Math.max(0, to - Math.max(from, 0)));
    return { count, latest: count > 0 ? new Date(anchor + to * period).toISOString() : null };
  }
  let count = 0;
  let latest: string | null = null;
  let cursor = after;
  for (;;) {
    const next = nextSlot(schedule, cursor);
    if (Date.parse(next) > end || count >= cap) break;
    count++;
    latest = next;
    cursor = next;
  }
  return { count, latest };
}
