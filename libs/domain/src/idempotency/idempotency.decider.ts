import { type Decider, type DomainEvent, Conflict, Invalid } from '../decider';

/**
 * `Idempotency-Key` on POSTs (API.md), one `idempotency-<team>-<key hash>` stream per key: the
 * first request claims it, its response is recorded, a repeat with the same body replays it.
 * Shared through the log, so it holds across gateway replicas and restarts.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export interface RecordedResponse {
  status: number;
  body: unknown;
  /**
   * Set when the answer was too large to keep (the body is then null): its size and SHA-256, so
   * a repeat learns the request was answered, and charged, once.
   */
  omitted?: { bytes: number; sha256: string };
}

export type IdempotencyEvent =
  | DomainEvent<'IdempotencyKeyClaimed', { fingerprint: string; request_id: string; claimed_at: string }>
  | DomainEvent<'IdempotentResponseRecorded', { request_id: string; response: RecordedResponse; completed_at: string }>
  | DomainEvent<'IdempotencyKeyReleased', { request_id: string; released_at: string }>;

export type IdempotencyState =
  | { status: 'free' }
  | { status: 'claimed'; fingerprint: string; request_id: string; claimed_at: string }
  | { status: 'completed'; fingerprint: string; request_id: string; claimed_at: string; response: RecordedResponse };

export type IdempotencyCommand =
  | {
      type: 'Claim';
      fingerprint: string;
      request_id: string;
      /** A claim with no response after this long is abandoned (its gateway died) and may be taken over. */
      abandon_after_ms: number;
    }
  | { type: 'RecordResponse'; request_id: string; response: RecordedResponse }
  | { type: 'Release'; request_id: string };

export const idempotencyKeyReuse = 'idempotency_key_reuse';

const age = (since: string, now: string) => Date.parse(now) - Date.parse(since);

function claim(
  command: Extract<IdempotencyCommand, { type: 'Claim' }>,
  state: IdempotencyState,
  now: string,
): IdempotencyEvent[] {
  const claimed: IdempotencyEvent[] = [
    {
      type: 'IdempotencyKeyClaimed',
      data: { fingerprint: command.fingerprint, request_id: command.request_id, claimed_at: now },
    },
  ];
  if (state.status === 'free' || age(state.claimed_at, now) >= IDEMPOTENCY_WINDOW_MS) return claimed;
  if (state.fingerprint !== command.fingerprint) {
    throw new Invalid('Idempotency-Key was already used with a different request');
  }
  if (state.status === 'completed') return []; // the caller replays state.response
  if (age(state.claimed_at, now) >= command.abandon_after_ms) return claimed;
  throw new Conflict('A request with this Idempotency-Key is still being processed');
}

export const idempotencyDecider: Decider<IdempotencyCommand, IdempotencyEvent, IdempotencyState> = {
  initialState: { status: 'free' },
  decide(command, state, { now }) {
    switch (command.type) {
      case 'Claim':
        return claim(command, state, now);
      case 'RecordResponse':
        return state.status === 'claimed' && state.request_id === command.request_id
          ? [
              {
                type: 'IdempotentResponseRecorded',
                data: { request_id: command.request_id, response: command.response, completed_at: now },
              },
            ]
          : [];
      case 'Release':
        return state.status === 'claimed' && state.request_id === command.request_id
          ? [{ type: 'IdempotencyKeyReleased', data: { request_id: command.request_id, released_at: now } }]
          : [];
      default: {
        const unreachable: { type: string } = command satisfies never;
        throw new Error(`unknown command ${unreachable.type}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'IdempotencyKeyClaimed':
        return { status: 'claimed', ...event.data };
      case 'IdempotentResponseRecorded':
        return state.status === 'claimed' && state.request_id === event.data.request_id
          ? { ...state, status: 'completed', response: event.data.response }
          : state;
      case 'IdempotencyKeyReleased':
        return state.status === 'claimed' && state.request_id === event.data.request_id ? { status: 'free' } : state;
      default:
        return state;
    }
  },
};

export const idempotencyStream = (teamId: string, keyHash: string): string => `idempotency-${teamId}-${keyHash}`;
