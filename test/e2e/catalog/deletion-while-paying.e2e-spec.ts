import { CheckoutPaymentsService } from '../../../src/modules/billing/payments/checkout-payments.service';
import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, CreatedOrder, insertProduct, orderBody } from '../billing/fixtures';
import { createPlan } from './catalog-fixtures';

/**
 * A product or plan deleted while one of its checkouts is being paid (billing README, *A product or
 * plan deleted while it is being paid*): the deletion waits for the sale (409), a sale made while it
 * waited for the orders' locks is found, and a payment claimed after the plan went charges nothing.
 */
describe('deleting a product or plan while it is being paid', () => {
  let t: TestApp;
  let seller: TestSeller;

  beforeAll(async () => {
    t = await createTestApp({ env: { PAYMENT_RECONCILE_SECONDS: '3600' } });
    seller = await createSeller(t);
  });
  afterAll(() => t.close());

  const order = async (ref: string) => (await t.http.get(`/v1/orders/${ref}`).set(seller.auth).expect(200)).body.order;

  async function planCheckout(): Promise<{ plan: { id: number; plan_id: string }; created: CreatedOrder }> {
    const product = await insertProduct(t, seller.storeId, { type: 'recurring', price: null });
    const plan = await createPlan(t, seller, product.pid, { name: 'Mensal', price: 300, interval: 'month' });
    const created = await createOrder(t, seller, orderBody(product.pid, { plan_id: plan.plan_id, amount: 300 }));
    return { plan, created };
  }

  /** What a payment with the gateway leaves while its answer is awaited: its attempt, `status`. */
  async function paymentUnderWay(orderNumber: string, status: 'processing' | 'unknown'): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO payment_attempts (reference, order_id, store_id, method, provider, amount, currency,
                                     payment_number, status, created_at, updated_at)
       SELECT 'att_' || o.order_number, o.id, o.store_id, 'mpesa', 'sandbox', o.amount, o.currency, '841234567',
              $2, now(), now()
         FROM orders o WHERE o.order_number = $1`,
      [orderNumber, status],
    );
  }

  it.each(['processing', 'unknown'] as const)(
    'a plan with a checkout whose payment is %s: 409 A payment is already in progress., nothing changes',
    async (status) => {
      const { plan, created } = await planCheckout();
      await paymentUnderWay(created.order_number, status);
      const res = await t.http.delete(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(409);
      expect(res.body).toEqual({ status: 'error', message: 'A payment is already in progress.' });
      await t.http.get(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(200);
      expect((await order(created.order_number)).status).toBe('pending');
    },
  );

  it('a product with a checkout being paid: 409, the product and the order stay', async () => {
    const product = await insertProduct(t, seller.storeId, { name: 'Ebook', price: '150.00' });
    const created = await createOrder(t, seller, orderBody(product.pid));
    await paymentUnderWay(created.order_number, 'processing');
    const res = await t.http.delete(`/v1/products/${product.pid}`).set(seller.auth).expect(409);
    expect(res.body).toEqual({ status: 'error', message: 'A payment is already in progress.' });
    await t.http.get(`/v1/products/${product.pid}`).set(seller.auth).expect(200);
    expect((await order(created.order_number)).status).toBe('pending');
  });

  it('a sale committed while the deletion waited for its orders: 409, the plan stays', async () => {
    const { plan, created } = await planCheckout();
    // A payment's outcome being applied: the order locked and approved, not yet committed.
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(`SELECT id FROM orders WHERE order_number = $1 FOR UPDATE`, [created.order_number]);
      await runner.query(`UPDATE orders SET status = 'approved', approved_at = now() WHERE order_number = $1`, [
        created.order_number,
      ]);
      const deleting = t.http
        .delete(`/v1/plans/${plan.plan_id}`)
        .set(seller.auth)
        .then((res) => res);
      for (;;) {
        const [{ waiting }] = (await t.dataSource.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )) as { waiting: number }[];
        if (waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await runner.commitTransaction();
      const res = await deleting;
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ status: 'error', message: 'This plan has one or more sales and cannot be deleted.' });
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    await t.http.get(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(200);
  });

  it('a payment claimed after its plan was deleted (the link opened before): declined without a charge, no subscription', async () => {
    const { plan, created } = await planCheckout();
    const checkout = t.app.get(CheckoutPaymentsService);
    const opened = await checkout.checkoutOf(created.pay_token);
    await t.http.delete(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(200);
    const result = await checkout.pay(opened, { method: 'mpesa', paymentNumber: '841234567', bumpIds: [] }, null);
    expect(result.outcome).toBe('declined');
    // Like every attempt, declined ones too, it has the transaction id it gave the order.
    expect(result.attempt).toMatchObject({ status: 'failed', errorCode: 'plan_deleted' });
    const paid = await order(created.order_number);
    expect(paid.status).not.toBe('approved');
    expect(result.attempt?.transactionId).toBe(paid.transaction_id);
    const [{ subscriptions }] = await t.dataSource.query(
      `SELECT count(*)::int AS subscriptions FROM subscriptions s JOIN orders o ON o.id = s.order_id
        WHERE o.order_number = $1`,
      [created.order_number],
    );
    expect(subscriptions).toBe(0);
  });
});
