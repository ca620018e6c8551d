import { PaymentReconciler } from '../../../src/modules/billing/payments/payment-reconciler';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody, payJson } from '../billing/fixtures';

/**
 * An attempt the sandbox was paying when its process died (left `processing`) is settled by the
 * reconciler as the charge would have answered it: the sandbox's numbers hold after a crash too
 * (a `0002` number is declined, the order cancelled; any other approved).
 */
describe('the sandbox after a crash mid-payment', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { PAYMENT_RECONCILE_SECONDS: '3600' } });
  });
  afterAll(() => t.close());

  it('settles an attempt left processing by its payment number', async () => {
    const seller = await createSeller(t);
    const product = await insertProduct(t, seller.storeId);
    const declined = await createOrder(t, seller, orderBody(product.pid));
    const approved = await createOrder(t, seller, orderBody(product.pid));
    // What a process killed inside the sandbox's charge leaves behind: the claimed attempt, two minutes old.
    for (const [order, number, reference] of [
      [declined, '841230002', 'att_crash_declined'],
      [approved, '841234567', 'att_crash_approved'],
    ] as const) {
      await t.dataSource.query(
        `INSERT INTO payment_attempts (reference, order_id, store_id, method, provider, amount, currency,
                                       payment_number, status, created_at, updated_at)
         SELECT $2, o.id, o.store_id, 'mpesa', 'sandbox', o.amount, o.currency, $3, 'processing',
                now() - interval '2 minutes', now() - interval '2 minutes'
           FROM orders o WHERE o.order_number = $1`,
        [order.order_number, reference, number],
      );
    }

    const report = await t.app.get(PaymentReconciler).runOnce();
    expect(report).toEqual({ looked: 2, settled: 2, refunds: 0 });

    const statusOf = async (orderNumber: string) =>
      (await t.http.get(`/v1/orders/${orderNumber}`).set(seller.auth).expect(200)).body.order.status;
    expect(await statusOf(declined.order_number)).toBe('cancelled');
    expect(await statusOf(approved.order_number)).toBe('approved');
    const attempts = (await t.dataSource.query(
      `SELECT reference, status, error_code FROM payment_attempts WHERE reference LIKE 'att_crash_%' ORDER BY reference`,
    )) as Array<{ reference: string; status: string; error_code: string | null }>;
    expect(attempts).toEqual([
      { reference: 'att_crash_approved', status: 'succeeded', error_code: null },
      { reference: 'att_crash_declined', status: 'failed', error_code: 'declined' },
    ]);
  });

  it('frees a refund its process died in (the sandbox moved no money), so the seller can refund again', async () => {
    const seller = await createSeller(t);
    const product = await insertProduct(t, seller.storeId);
    const paid = await createOrder(t, seller, orderBody(product.pid));
    await payJson(t, paid.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(200);
    // What a process killed inside the refund's gateway call leaves behind: the claim, eleven minutes old.
    await t.dataSource.query(
      `UPDATE payment_attempts a SET refund_started_at = now() - interval '11 minutes', refund_request_reference = 'ref_crash'
         FROM orders o WHERE o.id = a.order_id AND o.order_number = $1`,
      [paid.order_number],
    );
    await t.http.post(`/v1/orders/${paid.order_number}/refund`).set(seller.auth).expect(409);
    expect(await t.app.get(PaymentReconciler).runOnce()).toEqual({ looked: 0, settled: 0, refunds: 1 });
    const refunded = await t.http.post(`/v1/orders/${paid.order_number}/refund`).set(seller.auth).expect(200);
    expect(refunded.body.order.status).toBe('refunded');
  });
});
