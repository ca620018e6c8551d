import { randomInt } from 'node:crypto';
import { sha256Hex } from '../../../common/crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `XXXXX-XXXXX-XXXXX-XXXXX` of RFC 4648 base32: 20 characters of 5 random bits, 100 bits. */
export const LICENSE_KEY_PATTERN = /^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/;

export function generateLicenseKey(): string {
  let chars = '';
  for (let i = 0; i < 20; i++) chars += BASE32[randomInt(32)];
  return chars.match(/.{5}/g)!.join('-');
}

/**
 * The key as it is looked up: trimmed and upper-cased. Anything else that is not of the key's form
 * gets the same 404 as an unknown key, so an answer never tells how close a guess was.
 */
export function normalizeLicenseKey(input: string): string | null {
  const key = input.trim().toUpperCase();
  return LICENSE_KEY_PATTERN.test(key) ? key : null;
}

/** What the database keeps to find a key (its SHA-256); the key itself is kept encrypted. */
export function licenseKeyHash(key: string): string {
  return sha256Hex(`license:${key}`);
}
