import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { apiKeyMatches, generateApiKey, generateWebhookSecret, hashApiKey, parseApiKey } from './api-keys';
import { SecretBox } from './secret-box';

describe('api keys', () => {
  it('are wr_<12-char id>_<secret> and parse back to their id', () => {
    const { key, keyId, hash } = generateApiKey();
    expect(key).toMatch(/^wr_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiKey(key)).toEqual({ keyId });
    expect(hash).toBe(hashApiKey(key));
    expect(hash).not.toContain(key.split('_').pop());
  });
  it('are unique', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().keyId));
    expect(keys.size).toBe(200);
  });
  it('refuse malformed keys', () => {
    for (const bad of [
      '',
      'wr_',
      'wr_short_x',
      'sk_abcdefghijkl_' + 'a'.repeat(43),
      `wr_abcdefghijkl_${'a'.repeat(42)}`,
    ]) {
      expect(parseApiKey(bad)).toBeUndefined();
    }
  });
  it('match only their own hash', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(apiKeyMatches(a.key, a.hash)).toBe(true);
    expect(apiKeyMatches(b.key, a.hash)).toBe(false);
    expect(apiKeyMatches(a.key, 'not-hex')).toBe(false);
  });
  it('webhook secrets use the Standard Webhooks format', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
  });
});

describe('SecretBox', () => {
  it('round-trips and never contains the plaintext', () => {
    const box = SecretBox.fromBase64(Buffer.alloc(32, 7).toString('base64'));
    const sealed = box.seal('whsec_topsecret');
    expect(sealed).not.toContain('topsecret');
    expect(box.open(sealed)).toBe('whsec_topsecret');
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });
  it('refuses ciphertext tampered with or sealed under another key', () => {
    const box = SecretBox.fromBase64(Buffer.alloc(32, 1).toString('base64'));
    const other = SecretBox.fromBase64(Buffer.alloc(32, 2).toString('base64'));
    const sealed = box.seal('secret');
    expect(() => other.open(sealed)).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('xxxxxx').toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow();
  });
  it('opens only the full 16-byte tag: a shortened one is refused, even when its bytes are right', () => {
    const box = SecretBox.fromBase64(Buffer.alloc(32, 3).toString('base64'));
    const parts = box.seal('secret').split(':');
    // The tag's first 4 bytes are a valid truncated GCM tag, which an unpinned decipher accepts.
    parts[2] = Buffer.from(parts[2]!, 'base64').subarray(0, 4).toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow('not a sealed secret');
  });
  it('generates a key file once with mode 0600 and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    const sealed = SecretBox.load(undefined, dir).seal('s');
    expect(fs.statSync(path.join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(SecretBox.load(undefined, dir).open(sealed)).toBe('s');
  });
  it('rejects a SECRETS_KEY of the wrong length', () => {
    expect(() => SecretBox.fromBase64('c2hvcnQ=')).toThrow(/32 bytes/);
  });
});

describe('SecretBox.load: the key file appears whole or not at all', () => {
  it('a process stopped mid-write leaves no damaged key file behind: the next boot makes a good one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-secrets-crash-'));
    // The module object itself (the spec's `fs` is a namespace of read-only bindings to it).
    const nodeFs = require('node:fs') as typeof fs;
    const write = nodeFs.writeFileSync;
    // The disk fills after half the key is written: the write stops there, as a crash would.
    const spy = jest.spyOn(nodeFs, 'writeFileSync').mockImplementation((file, data, options) => {
      write(file, String(data).slice(0, 10), options);
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    });
    try {
      expect(() => SecretBox.load(undefined, dir)).toThrow('ENOSPC');
    } finally {
      spy.mockRestore();
    }
    // A sibling (or the next boot) reads no half key: it makes the key afresh.
    const box = SecretBox.load(undefined, dir);
    expect(box.open(box.seal('secret'))).toBe('secret');
    expect(fs.readdirSync(dir)).toEqual(['secrets.key']);
    expect(Buffer.from(fs.readFileSync(path.join(dir, 'secrets.key'), 'utf8').trim(), 'base64')).toHaveLength(32);
  });
});
