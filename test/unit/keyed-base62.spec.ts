import { randomBytes } from 'node:crypto';
import { keyedBase62 } from '../../src/common/crypto';

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
