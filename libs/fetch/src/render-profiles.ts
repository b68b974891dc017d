import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Every browser profile a renderer makes is a folder of the temporary directory named so. */
export const PROFILE_PREFIX = 'render-profile-';
/** A profile with no browser lock older than this is a launch that never finished. */
const UNLOCKED_AGE_MS = 60 * 60 * 1000;

export interface ProfileSweepOptions {
  dir?: string;
  host?: string;
  /** Whether a process of this host is running. */
  alive?: (pid: number) => boolean;
  now?: number;
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process that exists and is not ours.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes the browser profiles that processes killed before they could remove their own (an out of
 * memory kill, a power cut) left in the temporary directory, so that crashes do not fill the disk.
 * A profile is left alone while a browser may still use it: Chromium's `SingletonLock` names the
 * host and process holding it, and only a lock of this host naming a process that is gone, or a
 * profile without a lock for over an hour, is stale. Best effort: what cannot be read or removed
 * is skipped. Asynchronous, so a large temporary directory never holds the event loop. The
 * folders removed.
 */
export async function sweepStaleProfiles(options: ProfileSweepOptions = {}): Promise<string[]> {
  const dir = options.dir ?? os.tmpdir();
  const host = options.host ?? os.hostname();
  const alive = options.alive ?? running;
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(PROFILE_PREFIX)) continue;
    const profile = path.join(dir, entry.name);
    try {
      if (!(await stale(profile, host, alive, now))) continue;
      await fs.promises.rm(profile, { recursive: true, force: true });
      removed.push(profile);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed;
}

async function stale(profile: string, host: string, alive: (pid: number) => boolean, now: number): Promise<boolean> {
  let lock: string;
  try {
    lock = await fs.promises.readlink(path.join(profile, 'SingletonLock'));
  } catch {
    return now - (await fs.promises.stat(profile)).mtimeMs > UNLOCKED_AGE_MS;
  }
  // "<host>-<pid>": the host may itself hold dashes.
  const at = lock.lastIndexOf('-');
  const pid = Number(lock.slice(at + 1));
  if (at <= 0 || lock.slice(0, at) !== host || !Number.isInteger(pid) || pid <= 0) return false;
  return !alive(pid);
}
