import { cronProblem, NOTIFY_ON } from '@app/domain';
import {
  EnumField,
  enumParser,
  fail,
  IntField,
  listParser,
  MetadataField,
  ok,
  type Parser,
  PyField,
  StrField,
  UrlField,
} from '@app/platform';

export const CADENCES = ['hourly', 'daily', 'weekly'] as const;
export const MODES = ['diff', 'snapshot'] as const;
export const MONITOR_STATUSES = ['active', 'paused'] as const;

/** A 5-field cron expression (UTC). */
const cronParser = (): Parser => (input, loc) => {
  if (typeof input !== 'string') return fail('string_type', loc, 'Input should be a valid string', input);
  const problem = cronProblem(input);
  return problem ? fail('value_error', loc, `Value error, ${problem}`, input) : ok(input.trim());
};

/** Standard Webhooks secret: `whsec_` and the base64 of at least 24 random bytes. */
const webhookSecretParser = (): Parser => (input, loc) => {
  if (typeof input !== 'string') return fail('string_type', loc, 'Input should be a valid string', input);
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(input);
  const bytes = match ? Buffer.from(match[1]!, 'base64').length : 0;
  if (!match || bytes < 24)
    return fail(
      'value_error',
      loc,
      'Value error, webhook_secret must be whsec_ followed by the base64 of at least 24 bytes',
      '[redacted]',
    );
  return ok(input);
};

const notifyOnSchema = { type: 'array', items: { type: 'string', enum: [...NOTIFY_ON] } };

/** POST /v1/monitors: the Monitor's writable fields and the write-only `webhook_secret`. */
export class MonitorBody {
  @StrField({ optional: true, minLength: 1, description: 'The tracked query (exactly one of query and url)' })
  query?: string;
  @UrlField({
    optional: true,
    description:
      "A page to watch instead of a query: each run reads it live and diffs its main content with the previous run (the view's query echoes it)",
  })
  url?: string;
  @EnumField(CADENCES, { default: 'daily', description: 'Counted from createdAt; a cron overrides it' })
  cadence!: (typeof CADENCES)[number];
  @PyField(
    cronParser(),
    { optional: true, nullable: true, description: '5 fields, read in UTC; overrides cadence' },
    { type: 'string' },
  )
  cron?: string | null;
  @EnumField(MODES, { default: 'diff' }) mode!: (typeof MODES)[number];
  @StrField({
    optional: true,
    nullable: true,
    minLength: 1,
    description:
      'A predicate each row must meet (language model; the extractive engine reads "mentions X", "published after D", "from domain D")',
  })
  filter_prompt?: string | null;
  @PyField(
    listParser(enumParser([...NOTIFY_ON]), { minItems: 0 }),
    { default: [...NOTIFY_ON], description: 'Which events are delivered' },
    notifyOnSchema as never,
    true,
  )
  notify_on!: ('change' | 'match' | 'error')[];
  @UrlField({ optional: true, nullable: true, description: 'Where monitor events are POSTed' }) webhook?: string | null;
  @IntField({ ge: 1, le: 20, default: 3 }) webhook_max_attempts!: number;
  @IntField({ ge: 0, le: 86_400, default: 30 }) webhook_backoff_seconds!: number;
  @PyField(
    webhookSecretParser(),
    {
      optional: true,
      nullable: true,
      description: 'Write-only; signs this monitor’s deliveries (else the team’s secret)',
    },
    { type: 'string', writeOnly: true },
  )
  webhook_secret?: string | null;
  @StrField({ default: 'us', pattern: '^[A-Za-z]{2}$' }) country!: string;
  @StrField({ default: 'en', minLength: 2, maxLength: 16 }) language!: string;
  @EnumField(MONITOR_STATUSES, { default: 'active' }) status!: (typeof MONITOR_STATUSES)[number];
  @MetadataField({ default: {} }) metadata!: Record<string, unknown>;
}

/** PATCH /v1/monitors/{id}: any of the writable fields; `webhook_secret: null` clears the secret. */
export class MonitorPatchBody {
  @StrField({ optional: true, minLength: 1, description: "A query monitor's query" }) query?: string;
  @UrlField({ optional: true, description: "A page monitor's page (its query follows)" }) url?: string;
  @EnumField(CADENCES, { optional: true }) cadence?: (typeof CADENCES)[number];
  @PyField(cronParser(), { optional: true, nullable: true }, { type: 'string' }) cron?: string | null;
  @EnumField(MODES, { optional: true }) mode?: (typeof MODES)[number];
  @StrField({ optional: true, nullable: true, minLength: 1 }) filter_prompt?: string | null;
  @PyField(listParser(enumParser([...NOTIFY_ON]), { minItems: 0 }), { optional: true }, notifyOnSchema as never, true)
  notify_on?: ('change' | 'match' | 'error')[];
  @UrlField({ optional: true, nullable: true }) webhook?: string | null;
  @IntField({ ge: 1, le: 20, optional: true }) webhook_max_attempts?: number;
  @IntField({ ge: 0, le: 86_400, optional: true }) webhook_backoff_seconds?: number;
  @PyField(webhookSecretParser(), { optional: true, nullable: true }, { type: 'string', writeOnly: true })
  webhook_secret?: string | null;
  @StrField({ optional: true, pattern: '^[A-Za-z]{2}$' }) country?: string;
  @StrField({ optional: true, minLength: 2, maxLength: 16 }) language?: string;
  @EnumField(MONITOR_STATUSES, { optional: true }) status?: (typeof MONITOR_STATUSES)[number];
  @MetadataField({ optional: true }) metadata?: Record<string, unknown>;
}

export class MonitorListQuery {
  @IntField({ ge: 1, le: 100, default: 20 }) limit!: number;
  @IntField({ ge: 0, default: 0 }) offset!: number;
  @EnumField(MONITOR_STATUSES, { optional: true }) status?: (typeof MONITOR_STATUSES)[number];
}

export class MonitorEventsQuery {
  @IntField({ ge: 1, le: 100, default: 20 }) limit!: number;
  @IntField({ ge: 0, default: 0 }) offset!: number;
}

export class MonitorIdParams {
  @StrField({ minLength: 1, maxLength: 200 }) monitor_id!: string;
}
