/**
 * Encrypts secrets at rest (the OIDC client secret) with AES-256-GCM. The key is 32 random bytes in a file of the
 * data directory, created on first use with mode 0600 (tightened to 0600 if found looser). Sealed text is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; a changed byte fails authentication instead of decrypting to garbage.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const KEY_BYTES = 32;
const IV_BYTES = 12;

/** Seals and opens secrets with the key in `keyFile`. */
export class SecretBox {
  private key: Buffer | undefined;

  constructor(private readonly keyFile: string) {}

  private loadKey(): Buffer {
    if (this.key) return this.key;
    let key: Buffer;
    try {
      key = readFileSync(this.keyFile);
      if ((statSync(this.keyFile).mode & 0o077) !== 0) chmodSync(this.keyFile, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(this.keyFile), { recursive: true });
      key = randomBytes(KEY_BYTES);
      // 'wx': never overwrite a key another process just created (its secrets would become unreadable).
      try {
        writeFileSync(this.keyFile, key, { mode: 0o600, flag: 'wx' });
      } catch (raced) {
        if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
        key = readFileSync(this.keyFile);
      }
    }
    if (key.length !== KEY_BYTES) throw new Error(`The secret key file ${this.keyFile} does not hold a ${KEY_BYTES}-byte key.`);
    this.key = key;
    return key;
  }

  /** Encrypts the text. */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.loadKey(), iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /** Decrypts sealed text; throws when it was altered or sealed with another key. */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('The sealed secret has an unknown format.');
    const decipher = createDecipheriv('aes-256-gcm', this.loadKey(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
