import { randomBase62 } from '../../src/common/crypto';

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
