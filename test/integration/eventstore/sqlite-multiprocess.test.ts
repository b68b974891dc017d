import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '../../../libs/eventstore/src/event-store.port';
import { openSqliteEventStore } from '../../../libs/eventstore/src/sqlite.event-store';

/**
 * Several OS processes on one sqlite file: concurrent appends lose and double nothing, a
 * subscriber in another process sees every event once, and a writer killed with SIGKILL at a
 * random moment leaves a sound file with whole batches only.
 */
const root = resolve(__dirname, '../../..');
const tsx = join(root, 'node_modules/.bin/tsx');
const workerScript = join(__dirname, 'append-worker.ts');
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

type Message = { ready?: number; done?: number; conflicts?: number; progress?: number; error?: string };

function startWorker(args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(tsx, [workerScript, ...args], { cwd: root });
  const messages: Message[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (let newline = stdout.indexOf('\n'); newline >= 0; newline = stdout.indexOf('\n')) {
      const line = stdout.slice(0, newline).trim();
      stdout = stdout.slice(newline + 1);
      if (line) messages.push(JSON.parse(line) as Message);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  const waitFor = async (predicate: (message: Message) => boolean, ms = 30_000): Promise<Message> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      const failed = messages.find((message) => message.error);
      if (failed) throw new Error(`worker failed: ${failed.error}`);
      if (Date.now() > deadline) throw new Error(`worker timed out; stderr: ${stderr}`);
      await sleep(5);
    }
  };
  return { child, messages, exited, waitFor };
}

/** Checks the file itself, through a plain connection: integrity, contiguity, whole batches. */
function verifyFile(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const streams = db
      .prepare('SELECT stream, COUNT(*) AS n, MIN(revision) AS low, MAX(revision) AS high FROM events GROUP BY stream')
      .all() as { stream: string; n: number; low: number; high: number }[];
    for (const { stream, n, low, high } of streams)
      expect({ stream, low, high }).toEqual({ stream, low: 0, high: n - 1 });
    // Within a stream, a later revision always has a later position.
    const disorder = db
      .prepare(
        'SELECT COUNT(*) FROM events a JOIN events b ON b.stream = a.stream AND b.revision = a.revision + 1 WHERE b.position <= a.position',
      )
      .pluck()
      .get();
    expect(disorder).toBe(0);
    const partial = db
      .prepare(
        `SELECT json_extract(data, '$.batch') AS batch FROM events WHERE type = 'BatchPart'
         GROUP BY batch HAVING COUNT(DISTINCT json_extract(data, '$.index')) != MAX(json_extract(data, '$.size'))`,
      )
      .all();
    expect(partial).toEqual([]);
    return {
      total: db.prepare('SELECT COUNT(*) FROM events').pluck().get() as number,
      batches: db
        .prepare("SELECT COUNT(DISTINCT json_extract(data, '$.batch')) FROM events WHERE type = 'BatchPart'")
        .pluck()
        .get() as number,
    };
  } finally {
    db.close();
  }
}

describe('sqlite event store across OS processes', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-multiprocess-'));
    file = join(dir, 'events.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('two processes append concurrently: none lost, none doubled, streams contiguous, a third process sees each event once', async () => {
    const perWorker = 2000;
    const store = openSqliteEventStore(file); // creates the schema before the workers start
    const received: RecordedEvent[] = [];
    const subscription = store.subscribeToAll();
    const consuming = (async () => {
      for await (const event of subscription) received.push(event);
    })();
    const workers = ['w1', 'w2'].map((id) => startWorker(['concurrent', file, id, String(perWorker), '4']));
    try {
      await Promise.all(workers.map((worker) => worker.waitFor((m) => m.ready !== undefined)));
      for (const worker of workers) worker.child.stdin.write('go\n'); // start both together
      const done = await Promise.all(workers.map((worker) => worker.waitFor((m) => m.done !== undefined, 60_000)));
      const exits = await Promise.all(workers.map((worker) => worker.exited));
      expect(exits.map((exit) => exit.code)).toEqual([0, 0]);
      // The shared streams really were contended across processes (the retry path ran).
      expect(done.reduce((sum, m) => sum + (m.conflicts ?? 0), 0)).toBeGreaterThan(0);

      const all = await store.readAll();
      expect(all).toHaveLength(2 * perWorker);
      expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
      expect(all.every((e, i) => i === 0 || e.position > all[i - 1].position)).toBe(true);
      for (const id of ['w1', 'w2']) {
        const seqs = all
          .filter((e) => (e.data as { worker: string }).worker === id)
          .map((e) => (e.data as { seq: number }).seq);
        expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: perWorker }, (_, i) => i));
      }
      const byStream = new Map<string, RecordedEvent[]>();
      for (const event of all) byStream.set(event.stream, [...(byStream.get(event.stream) ?? []), event]);
      for (const [stream, events] of byStream) {
        expect({ stream, revisions: events.map((e) => e.revision) }).toEqual({
          stream,
          revisions: events.map((_, i) => BigInt(i)),
        });
        if (stream.startsWith('shared-')) {
          // Every command was decided on the state it was appended to: no stale decision got in.
          expect(events.map((e) => (e.data as { countBefore: number }).countBefore)).toEqual(events.map((_, i) => i));
        }
      }

      // Live delivery across processes: every event once, in log order.
      const deadline = Date.now() + 20_000;
      while (received.length < all.length && Date.now() < deadline) await sleep(10);
      await sleep(100);
      expect(received.map((e) => e.id)).toEqual(all.map((e) => e.id));
    } finally {
      for (const worker of workers) worker.child.kill('SIGKILL');
      await subscription.close();
      await consuming;
      await store.close();
    }
  }, 120_000);

  it('a writer killed with SIGKILL mid-append leaves a sound file; appending then continues', async () => {
    let lastTotal = 0;
    for (let round = 0; round < 4; round++) {
      const worker = startWorker(['crash', file, `crash${round}`]);
      try {
        const { ready: pid } = await worker.waitFor((m) => m.ready !== undefined);
        const threshold = 200 + Math.floor(Math.random() * 1500);
        await worker.waitFor((m) => (m.progress ?? 0) >= threshold);
        await sleep(Math.random() * 30); // land at a random point of the append loop
        process.kill(pid!, 'SIGKILL'); // the appending process itself (tsx runs it as a child)
        await worker.exited;
        const committed = Math.max(...worker.messages.map((m) => m.progress ?? 0));

        const { total, batches } = verifyFile(file);
        expect(batches).toBeGreaterThan(0);
        // Nothing acknowledged as committed was lost (synchronous=NORMAL survives a process crash).
        expect(total - lastTotal).toBeGreaterThanOrEqual(committed);

        const store = openSqliteEventStore(file);
        try {
          for (const stream of ['crash-single-1', 'crash-batch-0']) {
            const revision = await store.streamRevision(stream);
            expect(revision).toBeDefined();
            const marker = randomUUID();
            const parts = [0, 1].map((index) => ({
              id: randomUUID(),
              type: 'BatchPart',
              data: { batch: marker, size: 2, index },
            }));
            const result = await store.append(stream, parts, revision!);
            expect(result.nextExpectedRevision).toBe(revision! + 2n);
          }
          const all = await store.readAll();
          expect(all.every((e, i) => i === 0 || e.position > all[i - 1].position)).toBe(true);
          lastTotal = all.length;
        } finally {
          await store.close();
        }
        expect(verifyFile(file).total).toBe(lastTotal);
      } finally {
        worker.child.kill('SIGKILL');
      }
    }
  }, 180_000);
});
