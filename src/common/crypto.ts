import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time: one `randomBytes` call costs about as much
 * as filling 4 KiB (~3 µs), and an order takes two tokens. Each byte is handed out once; this is
 * what Node's own `randomUUID` does with its entropy cache.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** `length` characters of base62 drawn without modulo bias (bytes ≥ 248 are skipped). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/**
 * 32 base62 characters that only the holder of `key` can compute for `message` (HMAC-SHA-256, one
 * character per byte of the digest, `byte % 62`): about 182 bits of min-entropy to anyone without
 * the key (the modulo favours the first eight characters slightly), well past the 128 a pay token
 * needs, and the same every time it is asked for.
 */
export function keyedBase62(key: Buffer, message: string): string {
  let out = '';
  for (const byte of createHmac('sha256', key).update(message).digest()) out += BASE62[byte % 62];
  return out;
}

/** A bearer secret of the form `<prefix>_<40 base62>` (the security schemes of the OpenAPI description): ~238 bits. */
export function generateToken(prefix: string): string {
  return `${prefix}_${randomBase62(40)}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * AES-256-GCM under a key derived from a secret for one purpose (HMAC-SHA-256 of the purpose), so
 * one secret gives independent keys. Sealed text is `base64url(iv ‖ tag ‖ ciphertext)`; opening
 * text that was altered or sealed under another key throws.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = createHmac('sha256', secret).update(purpose).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 28) throw new Error('Not a sealed value.');
    // The tag's length fixed: GCM would otherwise accept a shorter (easier to forge) one.
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12), { authTagLength: 16 });
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
