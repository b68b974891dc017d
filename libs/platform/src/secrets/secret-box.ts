import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * AES-256-GCM for secrets that must be usable later (webhook signing secrets): stored only as
 * `v1:<iv>:<tag>:<ciphertext>` (base64 parts), in events too. The key comes from SECRETS_KEY,
 * or from `$DATA_DIR/secrets.key`, generated with mode 0600 on first boot.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromBase64(key: string): SecretBox {
    const bytes = Buffer.from(key, 'base64');
    if (bytes.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes, base64-encoded');
    return new SecretBox(bytes);
  }

  /** SECRETS_KEY when given; else the key file in dataDir, created (exclusively) when absent. */
  static load(secretsKey: string | undefined, dataDir: string): SecretBox {
    if (secretsKey) return SecretBox.fromBase64(secretsKey);
    const file = path.join(dataDir, 'secrets.key');
    fs.mkdirSync(dataDir, { recursive: true });
    // Written whole under a name of its own, then linked into place: the key file appears with its
    // content or not at all, so a sibling process starting at the same moment never reads it empty.
    const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      fs.writeFileSync(draft, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      fs.linkSync(draft, file);
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
    return SecretBox.fromBase64(fs.readFileSync(file, 'utf8').trim());
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const ivBytes = Buffer.from(iv, 'base64');
    const tagBytes = Buffer.from(tag, 'base64');
    // GCM accepts tags down to 4 bytes unless told otherwise: a shortened tag would make a forged
    // secret far cheaper to guess. Only the 12-byte IV and 16-byte tag `seal` writes are opened.
    if (ivBytes.length !== 12 || tagBytes.length !== 16) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, ivBytes, { authTagLength: 16 });
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
