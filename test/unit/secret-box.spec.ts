import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from '../../src/common/crypto';
import type { AppConfig } from '../../src/config/app-config';
import { deliverySecret } from '../../src/config/delivery-secret';

const configWith = (secretFile: string): AppConfig =>
  ({ delivery: { limit: 10, secret: undefined, secretFile } }) as unknown as AppConfig;

describe('SecretBox (AES-256-GCM under a key of one purpose)', () => {
  const box = new SecretBox('s'.repeat(32), 'one purpose');

  it('opens what it sealed, and a new IV each time', () => {
    const sealed = box.seal('sk_live_secret');
    expect(sealed).not.toContain('sk_live_secret');
    expect(box.seal('sk_live_secret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('sk_live_secret');
  });

  it('refuses text altered, sealed for another purpose, or with a shortened tag', () => {
    const raw = Buffer.from(box.seal('value'), 'base64url');
    const flipped = Buffer.from(raw);
    flipped[flipped.length - 1] ^= 1;
    expect(() => box.open(flipped.toString('base64url'))).toThrow();
    expect(() => new SecretBox('s'.repeat(32), 'another purpose').open(raw.toString('base64url'))).toThrow();
    // iv ‖ a 4-byte tag ‖ ciphertext: GCM would check only 4 bytes if the length were not fixed.
    const short = Buffer.concat([raw.subarray(0, 16), raw.subarray(28)]);
    expect(() => box.open(short.toString('base64url'))).toThrow();
    expect(() => box.open('')).toThrow('Not a sealed value.');
  });
});

describe('deliverySecret without DELIVERY_SECRET', () => {
  it('creates $DATA_DIR/delivery.key once and reads it back', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'delivery-')), 'delivery.key');
    const secret = deliverySecret(configWith(file));
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(file, 'utf8')).toBe(secret);
  });

  it('an empty key file (another process made it and wrote nothing) is refused, never used as the secret', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'delivery-')), 'delivery.key');
    writeFileSync(file, '');
    expect(() => deliverySecret(configWith(file))).toThrow(/is empty: remove it, or set DELIVERY_SECRET/);
  });
});
