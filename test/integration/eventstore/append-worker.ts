/**
 * A child process for sqlite-multiprocess.test.ts (run with tsx). Talks JSON lines on stdout.
 *
 *   concurrent <file> <worker> <count> <sharedStreams>
 *     prints {ready}, waits for "go" on stdin, then makes <count> appends: even steps through
 *     the command handler on shared streams (contended by the other worker), odd steps to its
 *     own streams with an exact expected revision. Prints {done, conflicts} and exits.
 *   crash <file> <worker>
 *     appends forever (single events and batches carrying a batch marker), printing {progress}
 *     after commits, until the test kills it with SIGKILL.
 */
import { randomUUID } from 'node:crypto';
import { type CommandDecider, handleCommand } from '../../../libs/eventstore/src/command-handler';
import {
  type EventStore,
  type NewEvent,
  WrongExpectedRevisionError,
} from '../../../libs/eventstore/src/event-store.port';
import { openSqliteEventStore } from '../../../libs/eventstore/src/sqlite.event-store';

const [mode, file, worker, ...rest] = process.argv.slice(2);
const send = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);

/** Each shared event records the count it was decided on: it must equal its revision. */
type Tally = { type: 'SharedAppended'; data: { worker: string; seq: number; countBefore: number } };
const tally: CommandDecider<{ seq: number }, Tally, number> = {
  initialState: 0,
  decide: (command, count) => [{ type: 'SharedAppended', data: { worker, seq: command.seq, countBefore: count } }],
  evolve: (count) => count + 1,
};

function countingConflicts(store: EventStore) {
  const counter = { conflicts: 0 };
  const counted: EventStore = Object.create(store);
  counted.append = async (...args) => {
    try {
      return await store.append(...args);
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) counter.conflicts++;
      throw error;
    }
  };
  return { counted, counter };
}

async function concurrent(count: number, sharedStreams: number): Promise<void> {
  const store = openSqliteEventStore(file);
  const { counted, counter } = countingConflicts(store);
  send({ ready: process.pid });
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.pause();
  const own = new Map<string, bigint>();
  for (let seq = 0; seq < count; seq++) {
    if (seq % 2 === 0) {
      await handleCommand(counted, `shared-${(seq / 2) % sharedStreams}`, tally, { seq }, { maxAttempts: 100 });
    } else {
      const stream = `own-${worker}-${seq % 7}`;
      const event: NewEvent = { id: randomUUID(), type: 'OwnAppended', data: { worker, seq } };
      const result = await store.append(stream, [event], own.get(stream) ?? 'no_stream');
      own.set(stream, result.nextExpectedRevision);
    }
  }
  await store.close();
  send({ done: count, conflicts: counter.conflicts });
}

async function crash(): Promise<never> {
  const store = openSqliteEventStore(file);
  send({ ready: process.pid });
  let appended = 0;
  for (let step = 1; ; step++) {
    const batch = step % 3 === 0;
    const stream = `crash-${batch ? 'batch' : 'single'}-${step % 5}`;
    const size = batch ? 2 + (step % 40) : 1;
    const marker = randomUUID();
    const events: NewEvent[] = Array.from({ length: size }, (_, index) => ({
      id: randomUUID(),
      type: batch ? 'BatchPart' : 'Single',
      data: { worker, batch: marker, size, index },
    }));
    await store.append(stream, events, (await store.streamRevision(stream)) ?? 'no_stream');
    appended += size;
    if (step % 50 === 0) {
      send({ progress: appended }); // only counts committed appends
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

async function main(): Promise<void> {
  if (mode === 'concurrent') await concurrent(Number(rest[0]), Number(rest[1]));
  else if (mode === 'crash') await crash();
  else throw new Error(`unknown mode ${mode}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  },
);
