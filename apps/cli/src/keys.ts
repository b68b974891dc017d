/**
 * Keys CLI (API.md "Keys CLI"), the only way keys are made. Usable while the service runs: it
 * appends to the same event log, and the gateway's read model follows the log live.
 *
 *   keys create --team <team> [--name <label>] [--max-credits N --per day|month|total]   prints only the key
 *   keys update <key id> --max-credits N|none [--per day|month|total]
 *   keys list --team <team>      <key id> <active|revoked|expiring> <created> <name>[ budget=N/per spent=N resets=<time|never>]
 *   keys revoke <key id>
 *   keys rotate <key id> [--overlap 1h]          prints only the new key
 *   keys webhook-secret --team <team>            prints only the new whsec_ secret
 *
 * A flag the command does not take is refused, named, before anything is opened or changed.
 */
import { durationSeconds, loadConfig } from '@app/config';
import { openEventStore } from '@app/eventstore';
import { type BudgetPeriod, DomainError, isBudgetPeriod, keyBudgetProblem } from '@app/domain';
import { SecretBox, TeamAdmin } from '@app/platform';

const USAGE = `usage: keys create --team <team> [--name <label>] [--max-credits <N> --per <day|month|total>]
       keys update <key id> --max-credits <N|none> [--per <day|month|total>]
       keys list --team <team>
       keys revoke <key id>
       keys rotate <key id> [--overlap <duration, e.g. 90s, 30m, 1h, 7d>]
       keys webhook-secret --team <team>`;

class UsageError extends Error {}

function parseArgs(argv: string[]): { command: string; positional: string[]; flags: Map<string, string> } {
  const [command = '', ...rest] = argv;
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg.startsWith('--')) {
      const value = rest[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      flags.set(arg.slice(2), value);
      i++;
    } else positional.push(arg);
  }
  return { command, positional, flags };
}

export function parseDuration(text: string): number {
  const seconds = durationSeconds(text);
  if (seconds === undefined) throw new UsageError(`--overlap must look like 90s, 30m, 1h or 7d, got "${text}"`);
  return seconds;
}

const required = (flags: Map<string, string>, name: string): string => {
  const value = flags.get(name);
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
};

const onlyPositional = (positional: string[], what: string): string => {
  if (positional.length !== 1) throw new UsageError(`expected exactly one ${what}`);
  return positional[0];
};

/** The flags each command takes: any other is refused, naming it, before anything is opened or changed. */
const FLAGS: Record<string, readonly string[]> = {
  create: ['team', 'name', 'max-credits', 'per'],
  update: ['max-credits', 'per'],
  list: ['team'],
  revoke: [],
  rotate: ['overlap'],
  'webhook-secret': ['team'],
};

function checkFlags(command: string, flags: Map<string, string>): void {
  const allowed = FLAGS[command];
  if (!allowed) throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
  for (const flag of flags.keys())
    if (!allowed.includes(flag))
      throw new UsageError(
        `keys ${command} does not take --${flag}${allowed.length ? ` (it takes ${allowed.map((f) => `--${f}`).join(', ')})` : ' (it takes no flag)'}`,
      );
}

/**
 * The budget the flags ask for: undefined when none is named, null for `--max-credits none`
 * (update: remove it). `--per` is required with a number (a limit means nothing without its period).
 */
export function budgetFlags(
  flags: Map<string, string>,
  current?: BudgetPeriod,
): { max_credits: number; per: BudgetPeriod } | null | undefined {
  const max = flags.get('max-credits');
  const per = flags.get('per') ?? current;
  if (max === undefined) {
    if (flags.has('per')) throw new UsageError('--per needs --max-credits');
    return undefined;
  }
  if (max === 'none') {
    if (flags.has('per')) throw new UsageError('--max-credits none takes no --per');
    return null;
  }
  if (!/^\d+$/.test(max)) throw new UsageError(`--max-credits must be a whole number or none, got "${max}"`);
  if (per === undefined) throw new UsageError('--max-credits needs --per day, month or total');
  if (!isBudgetPeriod(per)) throw new UsageError(`--per must be day, month or total, got "${per}"`);
  const problem = keyBudgetProblem(Number(max), per);
  if (problem) throw new UsageError(`--${problem}`);
  return { max_credits: Number(max), per };
}

async function main(argv: string[]): Promise<number> {
  const { command, positional, flags } = parseArgs(argv);
  checkFlags(command, flags);
  // Checked before anything is opened: a bad budget changes nothing.
  const budget = command === 'create' || command === 'update' ? budgetFlags(flags) : undefined;
  if (command === 'create' && budget === null) throw new UsageError('keys create takes --max-credits as a number');
  if (command === 'update' && budget === undefined) throw new UsageError('keys update needs --max-credits');
  const config = loadConfig();
  const store = await openEventStore(config.eventstoreUrl);
  const admin = new TeamAdmin(store, SecretBox.load(config.secretsKey, config.dataDir));
  const out = (line: string) => process.stdout.write(line + '\n');
  try {
    switch (command) {
      case 'create':
        out((await admin.createKey(required(flags, 'team'), flags.get('name') ?? '', budget ?? undefined)).key);
        return 0;
      case 'update':
        await admin.setKeyBudget(onlyPositional(positional, 'key id'), budget ?? null);
        return 0;
      case 'list':
        for (const key of await admin.listKeys(required(flags, 'team'))) {
          const spending = key.budget
            ? ` budget=${key.budget.max_credits}/${key.budget.per} spent=${key.budget.spent} resets=${key.budget.resets_at ?? 'never'}`
            : '';
          out(`${key.key_id} ${key.status} ${key.created_at} ${key.name}`.trimEnd() + spending);
        }
        return 0;
      case 'revoke':
        await admin.revokeKey(onlyPositional(positional, 'key id'));
        return 0;
      case 'rotate':
        out(
          (await admin.rotateKey(onlyPositional(positional, 'key id'), parseDuration(flags.get('overlap') ?? '1h')))
            .key,
        );
        return 0;
      case 'webhook-secret': {
        const team = required(flags, 'team');
        const created = await admin.ensureTeam(team);
        out(created.webhookSecret ?? (await admin.newWebhookSecret(team)));
        return 0;
      }
      default:
        throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
    }
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
        process.exit(2);
      }
      const message = error instanceof DomainError || error instanceof Error ? error.message : String(error);
      process.stderr.write(`error: ${message}\n`);
      process.exit(1);
    },
  );
}
