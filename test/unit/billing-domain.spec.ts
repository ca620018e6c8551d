import { canTransition, ORDER_STATUSES, ORDER_TRANSITIONS } from '../../src/modules/billing/orders/order-status';
import { signSandboxCallback, SandboxGateway } from '../../src/modules/billing/payments/sandbox.gateway';
import { addInterval } from '../../src/modules/billing/subscriptions/subscription-period';

describe('addInterval (calendar arithmetic)', () => {
  const d = (iso: string) => new Date(iso);

  it('clamps a month from the 31st to the last day of a shorter month', () => {
    expect(addInterval(d('2025-01-31T10:00:00Z'), 'month').toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(addInterval(d('2024-01-31T10:00:00Z'), 'month').toISOString()).toBe('2024-02-29T10:00:00.000Z');
    expect(addInterval(d('2025-03-31T00:00:00Z'), 'month').toISOString()).toBe('2025-04-30T00:00:00.000Z');
  });

  it('keeps the day when the target month has it, across a year end', () => {
    expect(addInterval(d('2025-12-15T08:30:00Z'), 'month').toISOString()).toBe('2026-01-15T08:30:00.000Z');
    expect(addInterval(d('2025-11-30T00:00:00Z'), 'month', 3).toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });

  it('adds years, days and weeks', () => {
    expect(addInterval(d('2024-02-29T00:00:00Z'), 'year').toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(addInterval(d('2025-12-31T23:00:00Z'), 'day').toISOString()).toBe('2026-01-01T23:00:00.000Z');
    expect(addInterval(d('2025-02-25T00:00:00Z'), 'week', 2).toISOString()).toBe('2025-03-11T00:00:00.000Z');
  });
});

describe('order state table', () => {
  it('allows exactly pending → approved | cancelled, approved → refunded and the reuse of a cancelled order', () => {
    const allowed = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}→${to}`));
    expect(allowed.sort()).toEqual(['approved→refunded', 'cancelled→pending', 'pending→approved', 'pending→cancelled']);
    expect(ORDER_TRANSITIONS.refunded).toEqual([]);
  });

  it('never allows staying in the same state (a second confirmation is a no-op)', () => {
    for (const status of ORDER_STATUSES) expect(canTransition(status, status)).toBe(false);
  });
});

describe('sandbox gateway', () => {
  const gateway = new SandboxGateway('s'.repeat(32));
  const charge = (paymentNumber: string) =>
    gateway.charge({ orderNumber: 'ORD-1', amount: 1000, currency: 'MZN', paymentMethod: 'mpesa', paymentNumber });

  it('declines numbers ending in 0002 and approves the others, each with a transaction id', async () => {
    const declined = await charge('841230002');
    const approved = await charge('841230003');
    expect(declined.status).toBe('declined');
    expect(approved.status).toBe('approved');
    expect(declined.transactionId).toMatch(/^sbx_\w{20}$/);
    expect(approved.transactionId).not.toBe(declined.transactionId);
  });

  it('accepts a callback only with the HMAC of its exact bytes', () => {
    const body = Buffer.from(JSON.stringify({ order_number: 'ORD-1', transaction_id: 'tx', status: 'approved' }));
    const good = { 'x-sandbox-signature': signSandboxCallback('s'.repeat(32), body) };
    expect(gateway.verifyCallback(body, good)).toEqual({ orderNumber: 'ORD-1', transactionId: 'tx', status: 'approved' });
    expect(gateway.verifyCallback(Buffer.concat([body, Buffer.from(' ')]), good)).toBeNull();
    expect(gateway.verifyCallback(body, { 'x-sandbox-signature': signSandboxCallback('other-secret-xxxxxxxx', body) })).toBeNull();
    expect(gateway.verifyCallback(body, {})).toBeNull();
  });
});
