import { daysBetween, monthlyRecurringRevenue } from '../../src/modules/billing/reports/sales-report';

describe('sales report arithmetic', () => {
  it('normalises plan prices to 30 days exactly, rounding once at the end', () => {
    expect(monthlyRecurringRevenue([])).toBe(0);
    expect(monthlyRecurringRevenue([{ price: 30000, interval: 'month', intervalCount: 1 }])).toBe(30000);
    expect(monthlyRecurringRevenue([{ price: 120000, interval: 'year', intervalCount: 1 }])).toBe(10000);
    expect(monthlyRecurringRevenue([{ price: 60000, interval: 'month', intervalCount: 3 }])).toBe(20000);
    // 7.00 a week: 30.00 (7 × 30 / 7), and 1.00 a week: 4.2857… → 4.29.
    expect(monthlyRecurringRevenue([{ price: 700, interval: 'week', intervalCount: 1 }])).toBe(3000);
    expect(monthlyRecurringRevenue([{ price: 100, interval: 'week', intervalCount: 1 }])).toBe(429);
    // Three of them: 12.857… → 12.86 (rounded once, not 3 × 4.29 = 12.87).
    const weekly = { price: 100, interval: 'week', intervalCount: 1 } as const;
    expect(monthlyRecurringRevenue([weekly, weekly, weekly])).toBe(1286);
    expect(monthlyRecurringRevenue([{ price: 1, interval: 'day', intervalCount: 1 }, weekly])).toBe(459);
  });

  it('lists every day of a range across month and year ends', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(daysBetween('2025-12-31', '2026-01-01')).toEqual(['2025-12-31', '2026-01-01']);
    expect(daysBetween('2026-01-01', '2026-01-01')).toEqual(['2026-01-01']);
  });
});
