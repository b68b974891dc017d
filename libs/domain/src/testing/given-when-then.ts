import type { DecideContext, Decider, DomainEvent, Refusal } from '../decider';

/**
 * given(events).when(command).then(events) / .thenThrows(...) for deciders (emmett style):
 * no I/O, deterministic time and ids.
 */
export const testContext = (now = '2026-01-01T00:00:00.000Z'): DecideContext => {
  let n = 0;
  return { now, newId: () => `id-${++n}` };
};

export function specFor<Command, Event extends DomainEvent, State>(
  decider: Decider<Command, Event, State>,
  context: () => DecideContext = () => testContext(),
) {
  return (given: Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState), context());
      return {
        then: (expected: Event[]) => expect(run()).toEqual(expected),
        thenThrows: (match: { refusal?: Refusal; message?: string | RegExp }) => {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeDefined();
          if (match.refusal !== undefined) expect(thrown).toHaveProperty('refusal', match.refusal);
          if (match.message !== undefined) expect((thrown as Error).message).toMatch(match.message);
        },
      };
    },
  });
}

/**
 * Decides each command on the state so far and folds what it decided, as a stream would record
 * them one after another: the events and the state they leave.
 */
export function record<Command, Event extends DomainEvent, State>(
  decider: Decider<Command, Event, State>,
  commands: Command[],
  context: DecideContext = testContext(),
): { events: Event[]; state: State } {
  const events: Event[] = [];
  let state = decider.initialState;
  for (const command of commands) {
    const decided = decider.decide(command, state, context);
    events.push(...decided);
    state = decided.reduce(decider.evolve, state);
  }
  return { events, state };
}
