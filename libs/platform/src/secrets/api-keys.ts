import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys read `wr_<key id>_<secret>`: the 12-character key id names the key in lists, logs and
 * events; only the SHA-256 of the whole key is stored, so the secret part is never kept anywhere.
 */
const KEY_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const KEY_PATTERN = /^wr_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface NewApiKey {
  key: string;
  keyId: string;
  hash: string;
}

export function newKeyId(): string {
  // Rejection sampling keeps every character uniformly likely (62 does not divide 256).
  let id = '';
  while (id.length < 12) {
    for (const byte of randomBytes(16)) {
      if (byte < 248 && id.length < 12) id += KEY_ID_ALPHABET[byte % 62];
    }
  }
  return id;
}

export function generateApiKey(): NewApiKey {
  const keyId = newKeyId();
  const key = `wr_${keyId}_${randomBytes(32).toString('base64url')}`;
  return { key, keyId, hash: hashApiKey(key) };
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The key id of a well-formed key, or undefined. */
export function parseApiKey(key: string): { keyId: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { keyId: match[1] } : undefined;
}

/** Constant-time comparison of a presented key against a stored hash. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = createHash('sha256').update(key).digest();
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/** `whsec_` + base64 of 24 random bytes: the Standard Webhooks secret format. */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;
