/**
 * A decider (DESIGN.md section 3): pure functions over an entity's events.
 * Time and ids come in through `DecideContext`, so `decide` is deterministic.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/**
 * A guard for the stored events of one union: `isEventOf<CrawlEvent>()(stored, 'CrawlPageRead')`
 * narrows a stored event (the read side sees `{type, data: unknown}`) to that member, so its data
 * is read with its type. The log holds only what the kind's decider decided, under its names.
 */
export const isEventOf =
  <E extends DomainEvent>() =>
  <T extends E['type']>(stored: DomainEvent, type: T): stored is Extract<E, { type: T }> =>
    stored.type === type;

export interface DecideContext {
  /** Current time, ISO-8601. */
  now: string;
  /** Makes a fresh opaque id (a uuid in production, deterministic in tests). */
  newId: () => string;
}

export interface Decider<Command, Event extends DomainEvent, State> {
  initialState: State;
  /** Returns the events the command causes; `[]` when it is already satisfied; throws a DomainError when refused. */
  decide(command: Command, state: State, context: DecideContext): Event[];
  /** Total: an event that does not apply to the state leaves it as it is. */
  evolve(state: State, event: Event): State;
}

/** What a refusal says of the command: what it names does not exist, it conflicts with the state, or it is invalid. */
export type Refusal = 'not_found' | 'conflict' | 'invalid' | 'payment_required';

/**
 * A refusal the caller can act on. The domain names the refusal; the platform library maps it to
 * the HTTP status of API.md (libs/platform/src/http/refusals.ts).
 */
export abstract class DomainError extends Error {
  abstract readonly refusal: Refusal;
}

/** The run, monitor, team or key named does not exist (for the caller). */
export class NotFound extends DomainError {
  readonly refusal = 'not_found' as const;
  override readonly name = 'NotFound';
}

/** The command is well formed but the state refuses it now (already done, not yet possible, a limit reached). */
export class Conflict extends DomainError {
  readonly refusal = 'conflict' as const;
  override readonly name = 'Conflict';
}

/**
 * A run's step refused because its charges would pass the run's own budget (`max_credits`): the
 * run ends with what it has (the run worker completes it, `termination_reason: "budget_exhausted"`).
 */
export class BudgetExhausted extends Conflict {}

/** The command breaks an invariant of its fields. */
export class Invalid extends DomainError {
  readonly refusal = 'invalid' as const;
  override readonly name = 'Invalid';
}

export const fold = <Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State => events.reduce(decider.evolve, decider.initialState);
