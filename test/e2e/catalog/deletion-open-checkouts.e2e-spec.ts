import { createSeller, TestSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, CreatedOrder, insertProduct, orderBody, payJson, recordEvents } from '../billing/fixtures';
import { createPlan } from './catalog-fixtures';

/**
 * A product or plan deleted while checkouts of it are open (billing README, *Open checkouts of a
 * deleted product or plan*): they are cancelled with it, so no payment starts on an order whose
 * product or plan is gone; while one of them is being paid, the deletion waits for the sale (409).
 */
describe('deleting a product or plan with open checkouts', () => {
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

  /** What a payment with the gateway leaves while it waits for the answer: its attempt, processing. */
  async function paymentUnderWay(orderNumber: string): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO payment_attempts (reference, order_id, store_id, method, provider, amount, currency,
                                     payment_number, status, created_at, updated_at)
       SELECT 'att_' || o.order_number, o.id, o.store_id, 'mpesa', 'sandbox', o.amount, o.currency, '841234567',
              'processing', now(), now()
         FROM orders o WHERE o.order_number = $1`,
      [orderNumber],
    );
  }

  async function expectCancelledWithTheCatalog(created: CreatedOrder, events: ReturnType<typeof recordEvents>) {
    const cancelled = await order(created.order_number);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.transaction_id).toMatch(/^cxl_[0-9A-Za-z]{20}$/);
    expect(events.filter((e) => e.payload.order_number === created.order_number).map((e) => e.kind)).toEqual([
      'order_cancelled',
    ]);
    // Its link is gone with the plan or product; nothing can be paid on it.
    await t.http.get(`/pay/token/${created.pay_token}`).expect(404);
    await payJson(t, created.pay_token, { payment_method: 'mpesa', payment_number: '841234567' }).expect(404);
    const [{ attempts }] = await t.dataSource.query(
      `SELECT count(*)::int AS attempts FROM payment_attempts a JOIN orders o ON o.id = a.order_id
        WHERE o.order_number = $1`,
      [created.order_number],
    );
    expect(attempts).toBe(0);
  }

  it('a plan: its pending orders are cancelled with it, each with order_cancelled and a transaction id of its own', async () => {
    const { plan, created } = await planCheckout();
    const events = recordEvents(t);
    await t.http.delete(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(200);
    await expectCancelledWithTheCatalog(created, events);
  });

  it('a plan with one of its checkouts being paid: 409 A payment is already in progress., nothing deleted or cancelled', async () => {
    const { plan, created } = await planCheckout();
    await paymentUnderWay(created.order_number);
    const events = recordEvents(t);
    const res = await t.http.delete(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(409);
    expect(res.body).toEqual({ status: 'error', message: 'A payment is already in progress.' });
    await t.http.get(`/v1/plans/${plan.plan_id}`).set(seller.auth).expect(200);
    expect((await order(created.order_number)).status).toBe('pending');
    expect(events).toEqual([]);
  });

  it('a product: its pending orders, and those with it as an order bump, are cancelled with it', async () => {
    const main = await insertProduct(t, seller.storeId, { name: 'Curso', price: '150.00' });
    const extra = await insertProduct(t, seller.storeId, { name: 'Extra', price: '50.00' });
    const own = await createOrder(t, seller, orderBody(extra.pid, { amount: 50 }));
    // An open checkout of another product with this one taken as its order bump.
    const withBump = await createOrder(t, seller, orderBody(main.pid));
    await t.dataSource.query(
      `INSERT INTO order_bump_items (order_id, product_id, product_pid, name, price)
       SELECT o.id, $2, $3, 'Extra', 50 FROM orders o WHERE o.order_number = $1`,
      [withBump.order_number, extra.id, extra.pid],
    );
    const other = await createOrder(t, seller, orderBody(main.pid));
    const events = recordEvents(t);
    await t.http.delete(`/v1/products/${extra.pid}`).set(seller.auth).expect(200);
    await expectCancelledWithTheCatalog(own, events);
    expect((await order(withBump.order_number)).status).toBe('cancelled');
    expect((await order(other.order_number)).status).toBe('pending');
  });

  it('a product with one of its checkouts being paid: 409, the product and the order stay', async () => {
    const product = await insertProduct(t, seller.storeId, { name: 'Ebook', price: '150.00' });
    const created = await createOrder(t, seller, orderBody(product.pid));
    await paymentUnderWay(created.order_number);
    const res = await t.http.delete(`/v1/products/${product.pid}`).set(seller.auth).expect(409);
    expect(res.body).toEqual({ status: 'error', message: 'A payment is already in progress.' });
    await t.http.get(`/v1/products/${product.pid}`).set(seller.auth).expect(200);
    expect((await order(created.order_number)).status).toBe('pending');
  });
});
