import { promises as fs } from 'node:fs';
import type { EventStore } from '@app/eventstore';
import type { MemoryReadStore } from './memory.read-store';

/**
 * Snapshots of the in-memory read models in DATA_DIR, so a boot replays only the log's tail: the
 * store's documents and checkpoints are written together (temp file + rename), beside the identity
 * of the log they were projected from (its first event's id) and how far it reached. A snapshot of
 * another log (the database was replaced) or one ahead of this log is ignored: the boot replays
 * everything, as it did before snapshots.
 */
export class ReadModelSnapshots {
  private firstEventId: string | null | undefined;
  private savedAt = -2n;

  constructor(
    private readonly file: string,
    private readonly events: EventStore,
    private readonly store: MemoryReadStore,
  ) {}

  /** Restores the snapshot if it belongs to this log; returns what was restored, or why not. */
  async restore(): Promise<{ restored: boolean; position?: bigint; reason?: string }> {
    const meta = await this.readMeta();
    if (!meta) return { restored: false, reason: 'no snapshot' };
    const first = await this.logIdentity();
    const head = await this.events.headPosition();
    if (meta.log !== first) return { restored: false, reason: 'snapshot of another event log' };
    if (BigInt(meta.position) > head) return { restored: false, reason: 'snapshot ahead of the event log' };
    try {
      if (!(await this.store.restore(this.file))) return { restored: false, reason: 'no snapshot' };
    } catch {
      // Torn or foreign: the store parses before it replaces anything, so it is still empty.
      return { restored: false, reason: 'unreadable snapshot' };
    }
    this.savedAt = BigInt(meta.position);
    return { restored: true, position: BigInt(meta.position) };
  }

  /** Writes a snapshot when the projector moved on since the last one. */
  async save(position: bigint): Promise<boolean> {
    if (position === this.savedAt) return false;
    const log = await this.logIdentity();
    await this.store.snapshot(this.file, { log, position: position.toString() });
    this.savedAt = position;
    return true;
  }

  /** Reads (and keeps) the log's identity while the log is open: the shutdown snapshot may come after it closes. */
  async identify(): Promise<void> {
    await this.logIdentity();
  }

  private async logIdentity(): Promise<string | null> {
    if (this.firstEventId === undefined || this.firstEventId === null)
      this.firstEventId = (await this.events.readAll({ maxCount: 1 }))[0]?.id ?? null;
    return this.firstEventId;
  }

  private async readMeta(): Promise<{ log: string | null; position: string } | null> {
    try {
      const handle = await fs.open(this.file, 'r');
      try {
        // The meta is written first, so the head of the file holds it whatever the snapshot's size.
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
        const head = buffer.subarray(0, bytesRead).toString('utf8');
        const m = /^\{"format":2,"meta":(\{[^}]*\})/.exec(head);
        return m ? (JSON.parse(m[1]!) as { log: string | null; position: string }) : null;
      } finally {
        await handle.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }
}
