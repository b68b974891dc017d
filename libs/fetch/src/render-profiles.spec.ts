import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROFILE_PREFIX, sweepStaleProfiles } from './render-profiles';

describe('sweepStaleProfiles', () => {
  let dir: string;
  const profile = (name: string, lock?: string, ageMs = 0) => {
    const at = path.join(dir, `${PROFILE_PREFIX}${name}`);
    fs.mkdirSync(path.join(at, 'Default'), { recursive: true });
    fs.writeFileSync(path.join(at, 'Default', 'Cookies'), 'x');
    if (lock !== undefined) fs.symlinkSync(lock, path.join(at, 'SingletonLock'));
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(at, when, when);
    return at;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('removes the profiles of this host whose browser process is gone, and keeps those in use', async () => {
    const alive = new Set([4242]);
    const dead = profile('dead', 'build-host-7-777');
    const live = profile('live', 'build-host-7-4242');
    const otherHost = profile('other', 'another-host-777');
    const fresh = profile('launching');
    const abandoned = profile('abandoned', undefined, 2 * 60 * 60 * 1000);
    const odd = profile('odd', 'no-pid-here');
    fs.mkdirSync(path.join(dir, 'not-a-profile'));
    const removed = await sweepStaleProfiles({ dir, host: 'build-host-7', alive: (pid) => alive.has(pid) });
    expect(removed.sort()).toEqual([abandoned, dead].sort());
    for (const kept of [live, otherHost, fresh, odd, path.join(dir, 'not-a-profile')])
      expect(fs.existsSync(kept)).toBe(true);
    expect(fs.existsSync(dead)).toBe(false);
  });

  it('judges a lock by the processes that really run here when not told', async () => {
    const mine = profile('mine', `${os.hostname()}-${process.pid}`);
    const gone = profile('gone', `${os.hostname()}-${2 ** 22 + 12345}`);
    expect(await sweepStaleProfiles({ dir })).toEqual([gone]);
    expect(fs.existsSync(mine)).toBe(true);
  });

  it('finds nothing to do in a folder it cannot read', async () => {
    expect(await sweepStaleProfiles({ dir: path.join(dir, 'missing') })).toEqual([]);
  });
});
