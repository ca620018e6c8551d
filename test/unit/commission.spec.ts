import { commissionFor } from '../../src/modules/affiliates/commission';

describe('commissionFor', () => {
  it.each([
    // [amount cents, percent hundredths, commission cents]
    [10000, 1000, 1000], // 10% of 100.00 = 10.00
    [12345, 1250, 1543], // 12.5% of 123.45 = 15.43125 → 15.43
    [333, 1250, 42], // 12.5% of 3.33 = 0.41625 → 0.42
    [100, 50, 1], // 0.5% of 1.00 = 0.005 → 0.01 (half up)
    [300, 50, 2], // 0.5% of 3.00 = 0.015 → 0.02 (half up, not to even)
    [100, 49, 0], // 0.49% of 1.00 = 0.0049 → 0.00
    [999999999999, 3333, 333300000000], // 33.33% of 9,999,999,999.99 = 3,332,999,999.99667 → 3,333,000,000.00
    [5000, 0, 0], // 0%
    [5000, 10000, 5000], // 100%
    [0, 5000, 0],
  ])('%i cents at %i hundredths of a percent → %i cents', (amount, percent, expected) => {
    expect(commissionFor(amount, percent)).toBe(expected);
  });

  it('never loses a cent to floating point on 0.1 + 0.2 style amounts', () => {
    // 30% of 0.30: float math gives 0.09 ± ε; exact is 9 cents.
    expect(commissionFor(30, 3000)).toBe(9);
  });
});
