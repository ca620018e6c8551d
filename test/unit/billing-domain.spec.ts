import { canTransition, ORDER_STATUSES, ORDER_TRANSITIONS } from '../../src/modules/billing/orders/order-status';
import { loadConfig } from '../../src/config/app-config';
import {
  signSandboxCallback,
  SandboxGateway,
} from '../../src/modules/billing/payments/gateways/sandbox/sandbox.gateway';
import { PaymentGatewayRegistry } from '../../src/modules/billing/payments/payment-gateway.registry';
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
    const allowed = ORDER_STATUSES.flatMap((from) =>
      ORDER_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed.sort()).toEqual(['approved→refunded', 'cancelled→pending', 'pending→approved', 'pending→cancelled']);
    expect(ORDER_TRANSITIONS.refunded).toEqual([]);
  });

  it('never allows staying in the same state (a second confirmation is a no-op)', () => {
    for (const status of ORDER_STATUSES) expect(canTransition(status, status)).toBe(false);
  });
});

describe('sandbox gateway', () => {
  const gateway = new SandboxGateway(
    loadConfig({ NODE_ENV: 'test', PAYMENT_SANDBOX_SECRET: 's'.repeat(32) }),
    new PaymentGatewayRegistry(),
  );
  const charge = (paymentNumber: string, offSession = false) =>
    gateway.charge({
      reference: 'ref',
      orderNumber: 'ORD-1',
      amount: 1000,
      currency: 'MZN',
      method: 'mpesa',
      paymentNumber,
      description: 'Course',
      offSession,
      returnUrls: null,
    });

  it('declines numbers ending in 0002 and approves the others, each with a transaction id', async () => {
    const declined = await charge('841230002');
    const approved = await charge('841230003');
    expect(declined).toMatchObject({
      status: 'failed',
      code: 'declined',
      transactionId: expect.stringMatching(/^sbx_\w{20}$/),
    });
    expect(approved).toMatchObject({ status: 'succeeded', transactionId: expect.stringMatching(/^sbx_\w{20}$/) });
  });

  it('(billing README, `subscriptions/`): a number ending in 0003 is approved on a first payment and declined on renewals', async () => {
    expect((await charge('841230003')).status).toBe('succeeded');
    expect((await charge('841230003', true)).status).toBe('failed');
    expect((await charge('841234567', true)).status).toBe('succeeded');
  });

  it('serves mpesa and emola as a fallback, and only while PAYMENT_SANDBOX is on', () => {
    const on = new PaymentGatewayRegistry();
    new SandboxGateway(loadConfig({ NODE_ENV: 'test' }), on).onModuleInit();
    expect(on.methods()).toEqual(['mpesa', 'emola']);
    expect(on.hasFallback()).toBe(true);
    const off = new PaymentGatewayRegistry();
    new SandboxGateway(loadConfig({ NODE_ENV: 'production' }), off).onModuleInit();
    expect(off.methods()).toEqual([]);
    const forced = new PaymentGatewayRegistry();
    new SandboxGateway(loadConfig({ NODE_ENV: 'production', PAYMENT_SANDBOX: 'true' }), forced).onModuleInit();
    expect(forced.methods()).toEqual(['mpesa', 'emola']);
  });

  it('accepts a callback only with the HMAC of its exact bytes', () => {
    const body = Buffer.from(JSON.stringify({ order_number: 'ORD-1', transaction_id: 'tx', status: 'approved' }));
    const good = { 'x-sandbox-signature': signSandboxCallback('s'.repeat(32), body) };
    expect(gateway.verifyCallback(body, good)).toEqual({
      orderNumber: 'ORD-1',
      outcome: { status: 'succeeded', transactionId: 'tx' },
    });
    expect(gateway.verifyCallback(Buffer.concat([body, Buffer.from(' ')]), good)).toBeNull();
    expect(
      gateway.verifyCallback(body, { 'x-sandbox-signature': signSandboxCallback('other-secret-xxxxxxxx', body) }),
    ).toBeNull();
    expect(gateway.verifyCallback(body, {})).toBeNull();
  });
});
