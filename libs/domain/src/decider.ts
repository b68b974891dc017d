/**
 * A decider (DESIGN.md section 3): pure functions over an entity's events.
 * Time and ids come in through `DecideContext`, so `decide` is deterministic.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

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

/** A refusal the caller can act on; `status` maps to the HTTP status of API.md. */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const fold = <Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State => events.reduce(decider.evolve, decider.initialState);
