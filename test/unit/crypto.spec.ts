import { randomBytes } from 'node:crypto';
import { keyedBase62, randomBase62 } from '../../src/common/crypto';

describe('randomBase62', () => {
  it('gives strings of the asked length over the 62 characters', () => {
    for (const length of [1, 12, 32, 43]) {
      const value = randomBase62(length);
      expect(value).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
    }
  });

  it('spreads evenly over the alphabet across refills of its byte pool', () => {
    // 62,000 characters draw well over 4 KiB: several pool refills.
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) for (const c of randomBase62(31)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Each character expects 1,000; a modulo bias or a repeated pool would be far outside ±20 %.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(800);
      expect(count).toBeLessThan(1_200);
    }
  });

  it('never repeats a token', () => {
    const seen = new Set(Array.from({ length: 20_000 }, () => randomBase62(12)));
    expect(seen.size).toBe(20_000);
  });
});

describe('keyedBase62 (the renewal checkout links)', () => {
  const key = randomBytes(32);

  it('is 32 base62 characters, the same every time for one key and message', () => {
    const token = keyedBase62(key, 'checkout:ORD-abc');
    expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(keyedBase62(key, 'checkout:ORD-abc')).toBe(token);
  });

  it('differs with the message and with the key', () => {
    const token = keyedBase62(key, 'checkout:ORD-abc');
    expect(keyedBase62(key, 'checkout:ORD-abd')).not.toBe(token);
    expect(keyedBase62(randomBytes(32), 'checkout:ORD-abc')).not.toBe(token);
  });

  it('spreads over the whole alphabet (no character class left out)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const c of keyedBase62(key, `m${i}`)) seen.add(c);
    expect(seen.size).toBe(62);
  });
});
