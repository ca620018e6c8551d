import { Logger } from '@nestjs/common';
import { OrdersRepository } from '../../../src/modules/billing/orders/orders.repository';
import { PaymentsService } from '../../../src/modules/billing/payments/payments.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody, payJson, recordEvents } from '../billing/fixtures';

describe('no gateway for any method (PAYMENT_SANDBOX=false, nothing configured)', () => {
  let t: TestApp;
  let seller: TestSeller;
  const warn = jest.spyOn(Logger.prototype, 'warn');

  beforeAll(async () => {
    warn.mockClear();
    t = await createTestApp({ env: { PAYMENT_SANDBOX: 'false' } });
    seller = await createSeller(t);
  });
  afterAll(async () => {
    warn.mockRestore();
    await t?.close();
  });

  it('logs one warning at start-up; the page says payments are not available; paying is 422', async () => {
    const warnings = warn.mock.calls.filter(([message]) => String(message).includes('No payment gateway'));
    expect(warnings).toHaveLength(1);
    const product = await insertProduct(t, seller.storeId);
    const created = await createOrder(t, seller, orderBody(product.pid));
    const page = await t.http.get(`/pay/token/${created.pay_token}`).expect(200);
    expect(page.text).toContain('Payments are not available');
    expect(page.text).not.toContain('Pay now');
    expect(page.text).not.toContain('Test payment');
    const res = await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(
      422,
    );
    expect(res.body.errors).toEqual({ payment_method: ['No payment method is available.'] });
  });

  it('production turns the sandbox off by default', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadConfig } = require('../../../src/config/app-config') as typeof import('../../../src/config/app-config');
    expect(loadConfig({ NODE_ENV: 'production' }).payments.sandbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).payments.sandbox).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_SANDBOX: 'true' }).payments.sandbox).toBe(true);
  });
});

describe('PaymentsService.startAttempt (renewals without the checkout page), on the sandbox', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
  });
  afterAll(() => t?.close());

  it('the checkout shows the sandbox notice', async () => {
    const product = await insertProduct(t, seller.storeId);
    const created = await createOrder(t, seller, orderBody(product.pid));
    const page = await t.http.get(`/pay/token/${created.pay_token}`).expect(200);
    expect(page.text).toContain('Test payment: no money moves');
  });

  it('a saved number ending in 0003 pays the first time and is declined off-session, leaving the order pending', async () => {
    const product = await insertProduct(t, seller.storeId);
    const payments = t.app.get(PaymentsService);
    const orders = t.app.get(OrdersRepository);

    const first = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, first.pay_token, { payment_method: 'mpesa', payment_number: '841230003' }).expect(200);

    const renewal = await createOrder(t, seller, orderBody(product.pid));
    const order = (await orders.findByOrderNumber(renewal.order_number))!;
    const events = recordEvents(t);
    const declined = await payments.startAttempt(order, { method: 'mpesa', paymentNumber: '841230003' });
    expect(declined.attempt).toMatchObject({ status: 'failed', offSession: true, errorCode: 'declined' });
    expect(declined.order.status).toBe('pending');
    expect(events).toEqual([]);

    const approved = await payments.startAttempt(order, { method: 'mpesa', paymentNumber: '841234567' });
    expect(approved.attempt?.status).toBe('succeeded');
    expect(approved.order.status).toBe('approved');
    expect(events.map((e) => e.kind)).toEqual(['order_approved']);
    const view = (await t.http.get(`/v1/orders/${renewal.order_number}`).set(seller.auth).expect(200)).body.order;
    expect(view.payments.map((p: { status: string }) => p.status)).toEqual(['succeeded', 'failed']);
  });
});
