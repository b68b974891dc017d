import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CommandDecider, handleCommand } from './command-handler';
import type { NewEvent } from './event-store.port';
import {
  aggregateStream,
  evolveRecorded,
  type FoldDecider,
  foldEvents,
  toDomainEvent,
  type Upcaster,
  upcast,
} from './fold';
import { openSqliteEventStore, type SqliteEventStore } from './sqlite.event-store';

/** A tally of deposits. Today a deposit is `Deposited { amount }`; it was first stored as `Credited { sum }`. */
type TallyEvent = { type: 'Deposited'; data: { amount: number } } | { type: 'Closed'; data: { at: string } };
type TallyState = { total: number; deposits: number; closed: boolean };
type TallyCommand = { type: 'Deposit'; amount: number };

const tally: CommandDecider<TallyCommand, TallyEvent, TallyState> = {
  initialState: { total: 0, deposits: 0, closed: false },
  decide(command) {
    return [{ type: 'Deposited', data: { amount: command.amount } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'Deposited':
        return { ...state, total: state.total + event.data.amount, deposits: state.deposits + 1 };
      case 'Closed':
        return { ...state, closed: true };
      default:
        return state;
    }
  },
};

/** The old shape renamed, type and field: `Credited { sum }` reads as `Deposited { amount }`. */
const creditedToDeposited: Upcaster = {
  type: 'Credited',
  upcast: (data) => ({ type: 'Deposited', data: { amount: data.sum } }),
};
/** A later change: amounts stored in cents by schema 1 events, in units since schema 2. */
const centsToUnits: Upcaster = {
  type: 'Deposited',
  upcast: (data, metadata) =>
    metadata.schema === 1
      ? { type: 'Deposited', data: { amount: (data.amount as number) / 100 } }
      : { type: 'Deposited', data },
};

const event = (type: string, data: Record<string, unknown>, schema?: number): NewEvent => ({
  id: `${type}-${Math.random().toString(36).slice(2)}`,
  type,
  data,
  metadata: schema === undefined ? {} : { schema },
});

describe('folding a stream into state', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fold-'));
    store = openSqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('aggregateStream', () => {
    it('given no stream, gives the initial state and no revision', async () => {
      // when
      const folded = await aggregateStream(store, 'tally-none', tally);
      // then
      expect(folded).toEqual({ state: tally.initialState, revision: undefined });
    });

    it('given a stream, folds every event and gives the revision of the last', async () => {
      // given
      await store.append(
        'tally-1',
        [event('Deposited', { amount: 5 }), event('Deposited', { amount: 7 }), event('Closed', { at: 'now' })],
        'no_stream',
      );
      // when
      const folded = await aggregateStream(store, 'tally-1', tally);
      // then
      expect(folded).toEqual({ state: { total: 12, deposits: 2, closed: true }, revision: 2n });
    });

    it('given maxCount, folds only the first events (a stream as its creation made it)', async () => {
      // given
      await store.append(
        'tally-1',
        [event('Deposited', { amount: 5 }), event('Deposited', { amount: 7 })],
        'no_stream',
      );
      // when
      const folded = await aggregateStream(store, 'tally-1', tally, { maxCount: 1 });
      // then
      expect(folded).toEqual({ state: { total: 5, deposits: 1, closed: false }, revision: 0n });
    });

    it('given upTo, folds the stream as it was at that revision', async () => {
      // given
      await store.append(
        'tally-1',
        [event('Deposited', { amount: 5 }), event('Deposited', { amount: 7 }), event('Deposited', { amount: 9 })],
        'no_stream',
      );
      // when
      const atOne = await aggregateStream(store, 'tally-1', tally, { upTo: 1n });
      const beforeAny = await aggregateStream(store, 'tally-1', tally, { upTo: -1n });
      // then
      expect(atOne).toEqual({ state: { total: 12, deposits: 2, closed: false }, revision: 1n });
      expect(beforeAny).toEqual({ state: tally.initialState, revision: undefined });
    });

    it('reads the revision the command handler appends at', async () => {
      // given
      const result = await handleCommand(store, 'tally-1', tally, { type: 'Deposit', amount: 3 });
      // when
      const folded = await aggregateStream(store, 'tally-1', tally);
      // then
      expect(folded).toEqual({ state: result.state, revision: result.nextExpectedRevision });
    });
  });

  describe('upcasters', () => {
    it('given old and new shapes of the same deposits, both fold to the same state', async () => {
      // given: the same two deposits, once as stored long ago and once as stored today
      await store.append('tally-old', [event('Credited', { sum: 5 }), event('Credited', { sum: 7 })], 'no_stream');
      await store.append(
        'tally-new',
        [event('Deposited', { amount: 5 }), event('Deposited', { amount: 7 })],
        'no_stream',
      );
      // when
      const old = await aggregateStream(store, 'tally-old', tally, { upcasters: [creditedToDeposited] });
      const current = await aggregateStream(store, 'tally-new', tally, { upcasters: [creditedToDeposited] });
      // then
      expect(old.state).toEqual({ total: 12, deposits: 2, closed: false });
      expect(old.state).toEqual(current.state);
    });

    it('without them, an old shape is an event the decider does not know (the state stays as it was)', async () => {
      // given
      await store.append('tally-old', [event('Credited', { sum: 5 })], 'no_stream');
      // when
      const folded = await aggregateStream(store, 'tally-old', tally);
      // then
      expect(folded).toEqual({ state: tally.initialState, revision: 0n });
    });

    it('are applied in order, each to what the ones before made, and see the metadata', async () => {
      // given: a first-shape deposit in cents (schema 1), a schema 1 deposit, and one of today
      await store.append(
        'tally-mixed',
        [
          event('Credited', { sum: 500 }, 1),
          event('Deposited', { amount: 700 }, 1),
          event('Deposited', { amount: 9 }, 2),
        ],
        'no_stream',
      );
      // when
      const folded = await aggregateStream(store, 'tally-mixed', tally, {
        upcasters: [creditedToDeposited, centsToUnits],
      });
      // then
      expect(folded.state).toEqual({ total: 21, deposits: 3, closed: false });
    });

    it('carried by the decider, apply to every fold of it: the command handler decides on the upcast state', async () => {
      // given
      const upcasting: CommandDecider<TallyCommand, TallyEvent, TallyState> = {
        ...tally,
        upcasters: [creditedToDeposited],
      };
      await store.append('tally-old', [event('Credited', { sum: 5 })], 'no_stream');
      // when
      const result = await handleCommand(store, 'tally-old', upcasting, { type: 'Deposit', amount: 7 });
      const [stored] = await store.readStream('tally-old', { maxCount: 1 });
      // then
      expect(result.state).toEqual({ total: 12, deposits: 2, closed: false });
      expect((await aggregateStream(store, 'tally-old', upcasting)).state).toEqual(result.state);
      expect(foldEvents(upcasting, await store.readStream('tally-old'))).toEqual(result.state);
      expect(toDomainEvent<TallyEvent>(stored!, upcasting.upcasters)).toEqual({
        type: 'Deposited',
        data: { amount: 5 },
      });
    });

    it('given to the command handler, are not skipped by a fold it cached without them', async () => {
      // given: the stream folded (and cached) by a command that read it without upcasters
      await store.append('tally-old', [event('Credited', { sum: 5 })], 'no_stream');
      const without = await handleCommand(store, 'tally-old', tally, { type: 'Deposit', amount: 7 });
      // when
      const withThem = await handleCommand(
        store,
        'tally-old',
        tally,
        { type: 'Deposit', amount: 1 },
        { upcasters: [creditedToDeposited] },
      );
      // then
      expect(without.state).toEqual({ total: 7, deposits: 1, closed: false });
      expect(withThem.state).toEqual({ total: 13, deposits: 3, closed: false });
    });

    it('leave the stored event as it is', async () => {
      // given
      await store.append('tally-old', [event('Credited', { sum: 5 })], 'no_stream');
      const [stored] = await store.readStream('tally-old');
      // when
      const current = upcast(stored!, [creditedToDeposited]);
      // then
      expect(current).toEqual({ type: 'Deposited', data: { amount: 5 } });
      expect(stored).toMatchObject({ type: 'Credited', data: { sum: 5 } });
    });
  });

  describe('foldEvents and evolveRecorded', () => {
    it('fold events already read like aggregateStream does, live one by one as well as all at once', async () => {
      // given
      await store.append(
        'tally-1',
        [event('Credited', { sum: 5 }), event('Deposited', { amount: 7 }), event('Closed', { at: 'now' })],
        'no_stream',
      );
      const recorded = await store.readStream('tally-1');
      const upcasters = [creditedToDeposited];
      // when
      const whole = foldEvents(tally, recorded, { upcasters });
      let live = tally.initialState;
      for (const stored of recorded) live = evolveRecorded(tally, live, stored, upcasters);
      // then
      expect(whole).toEqual((await aggregateStream(store, 'tally-1', tally, { upcasters })).state);
      expect(live).toEqual(whole);
    });

    it('fold onto an earlier state, and up to a revision', async () => {
      // given
      await store.append(
        'tally-1',
        [event('Deposited', { amount: 5 }), event('Deposited', { amount: 7 }), event('Deposited', { amount: 9 })],
        'no_stream',
      );
      const recorded = await store.readStream('tally-1');
      const first = foldEvents(tally, recorded.slice(0, 1));
      // when
      const rest = foldEvents(tally, recorded.slice(1), { onto: first });
      const atOne = foldEvents(tally, recorded, { upTo: 1n });
      // then
      expect(rest).toEqual(foldEvents(tally, recorded));
      expect(atOne).toEqual({ total: 12, deposits: 2, closed: false });
    });

    it('infer the event and state types from the decider', () => {
      const decider: FoldDecider<TallyEvent, TallyState> = tally;
      const state: TallyState = foldEvents(decider, [{ type: 'Deposited', data: { amount: 1 } }]);
      expect(state.total).toBe(1);
    });
  });

  describe('toDomainEvent', () => {
    it('given the decider, reads the event as its own type, through the upcasters it carries', async () => {
      // given
      const upcasting = { ...tally, upcasters: [creditedToDeposited] };
      await store.append('tally-old', [event('Credited', { sum: 5 })], 'no_stream');
      const [stored] = await store.readStream('tally-old');
      // when
      const read = toDomainEvent(stored!, upcasting);
      // then: typed as TallyEvent (its data narrows by type)
      expect(read.type === 'Deposited' && read.data.amount).toBe(5);
      expect(toDomainEvent(stored!, tally)).toEqual({ type: 'Credited', data: { sum: 5 } });
      expect(toDomainEvent(stored!)).toEqual({ type: 'Credited', data: { sum: 5 } });
    });
  });
});
