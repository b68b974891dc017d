import { MONITOR_STREAM_PREFIX, monitorDecider, teamDecider, teamStream } from '@app/domain';
import { aggregateStream, type EventStore } from '@app/eventstore';
import type { SecretBox } from '@app/platform';

/**
 * The team's webhook signing secrets in force at `at`: the current one, and during a rotation
 * (API.md "Keys CLI": 24 h) the previous one too. Read from the team's own stream rather than the
 * `teams` read model: this service may run without a projector, and the log is never behind.
 */
export async function signingSecrets(events: EventStore, box: SecretBox, teamId: string, at: Date): Promise<string[]> {
  const { state: team } = await aggregateStream(events, teamStream(teamId), teamDecider);
  if (team.status === 'absent') throw new Error(`team ${teamId} does not exist`);
  const secret = team.webhook_secret;
  if (!secret) throw new Error(`team ${teamId} has no webhook secret`);
  const secrets = [box.open(secret.ciphertext)];
  const { previous_ciphertext, previous_valid_until } = secret;
  if (previous_ciphertext && previous_valid_until && Date.parse(previous_valid_until) > at.getTime()) {
    secrets.push(box.open(previous_ciphertext));
  }
  return secrets;
}

/** Reads the signing secrets held by one kind of stream (a team's; a monitor's own, once monitors have secrets). */
type SecretReader = (events: EventStore, box: SecretBox, stream: string, at: Date) => Promise<string[]>;

const SECRET_READERS: Record<string, SecretReader> = {
  'team-': (events, box, stream, at) => signingSecrets(events, box, stream.slice('team-'.length), at),
  [MONITOR_STREAM_PREFIX]: async (events, box, stream) => {
    const { state: monitor } = await aggregateStream(events, stream, monitorDecider);
    if (monitor.status === 'absent') throw new Error(`${stream} does not exist`);
    if (!monitor.webhook_secret) throw new Error(`${stream} has no webhook secret`);
    return [box.open(monitor.webhook_secret.ciphertext)];
  },
};

/** The secrets that sign a delivery: those of the stream it names (`signer`), else its team's. */
export async function deliverySecrets(
  events: EventStore,
  box: SecretBox,
  delivery: { team_id: string; signer?: string },
  at: Date,
): Promise<string[]> {
  const signer = delivery.signer ?? teamStream(delivery.team_id);
  const prefix = Object.keys(SECRET_READERS).find((p) => signer.startsWith(p));
  if (!prefix) throw new Error(`no signing secret can be read from ${signer}`);
  return SECRET_READERS[prefix]!(events, box, signer, at);
}
