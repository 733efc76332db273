import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** AES-256-GCM: a 32-byte key, a fresh 12-byte nonce per secret, a 16-byte tag. */
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/**
 * The key of the two-factor secrets: TOTP_ENCRYPTION_KEY (32 bytes as 64 hex characters or
 * base64), else a key file made once in DATA_DIR, so the secrets survive a restart but not a copy
 * of the database without its data directory.
 */
export function twoFactorKeyFrom(value: string | undefined, dataDir: string): Buffer {
  if (value) {
    const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    if (key.length !== KEY_BYTES) throw new Error('TOTP_ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
    return key;
  }
  const file = path.join(dataDir, 'totp-encryption-key');
  try {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length === KEY_BYTES) return key;
    throw new Error(`${file} does not hold a 32-byte key`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = crypto.randomBytes(KEY_BYTES);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600 });
    return key;
  }
}

/** A random key for a process whose database lives only as long as it does (tests). */
export const processTwoFactorKey = () => crypto.randomBytes(KEY_BYTES);

/**
 * Seals a user's TOTP secret; the user's id is bound in as associated data, so a sealed secret
 * copied onto another account does not open.
 */
export function sealSecret(key: Buffer, userId: string, secret: string): string {
  const nonce = crypto.randomBytes(NONCE_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(userId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

/** Opens a sealed secret; undefined when it was sealed with another key or for another user, or altered. */
export function openSecret(key: Buffer, userId: string, sealed: string): string | undefined {
  const [version, body] = sealed.split('.');
  if (version !== VERSION || !body) return undefined;
  const bytes = Buffer.from(body, 'base64url');
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
