import { checkoutOf, customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { recordEvents } from '../billing/fixtures';

/**
 * The catalog lets a seller delete a product that has no sales (README, *Choices where the contract is silent*), even when abandoned
 * checkouts of it exist; billing keeps those orders readable and their checkout closed.
 */
describe('orders of a deleted product', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The checkout page, its pay and its cancel answer 404, and no event is published. */
  async function expectCheckoutGone(checkoutUrl: string): Promise<void> {
    const events = recordEvents(t);
    const path = new URL(checkoutUrl).pathname;
    await t.http.get(path).expect(404);
    for (const route of ['pay', 'cancel']) {
      const res = await t.http
        .post(`${path}/${route}`)
        .set('Accept', 'application/json')
        .send({ payment_method: 'mpesa', payment_number: '841234567' });
      expect({ route, status: res.status, body: res.body }).toEqual({
        route,
        status: 404,
        body: { status: 'error', message: 'Resource not found.' },
      });
    }
    expect(events).toEqual([]);
  }

  it('stay listed with product null; their checkout answers 404 and changes nothing', async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const kept = await api.product({ name: 'Kept', price: 100 });
    const doomed = await api.product({ name: 'Doomed', price: 50 });
    const pending = await api.order({
      amount: 50,
      product_pid: doomed.pid,
      customer: customerBody('pending@example.com'),
    });
    const cancelled = await api.order({
      amount: 50,
      product_pid: doomed.pid,
      customer: customerBody('cancelled@example.com'),
    });
    expect(await checkoutOf(t.http, cancelled).cancel()).toBe('cancelled');
    const other = await api.order({ amount: 100, product_pid: kept.pid, customer: customerBody('kept@example.com') });

    await t.http.delete(`/v1/products/${doomed.pid}`).set(seller.auth).expect(200);

    const list = await t.http.get('/v1/orders').set(seller.auth).expect(200);
    expect(list.body.orders.map((o: { order_number: string }) => o.order_number)).toEqual([
      other.order_number,
      cancelled.order_number,
      pending.order_number,
    ]);
    expect(list.body.orders.map((o: { product: unknown }) => o.product)).toEqual([
      expect.objectContaining({ pid: kept.pid }),
      null,
      null,
    ]);
    expect(await api.getOrder(pending.order_number)).toMatchObject({ status: 'pending', product: null, amount: 50 });

    await expectCheckoutGone(pending.checkout_url);
    expect((await api.getOrder(pending.order_number)).status).toBe('pending');
    // The other product's checkout is untouched.
    expect(await checkoutOf(t.http, other).pay({ payment_number: '841234567' })).toBe('approved');
  });

  it('of a deleted plan: their checkout answers 404 and changes nothing, no subscription without a plan', async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const club = await api.product({ name: 'Club', price: 300, type: 'recurring' });
    const monthly = await api.plan({ product_pid: club.pid, name: 'Mensal', price: 300, interval: 'month' });
    const pending = await api.order({
      amount: 300,
      product_pid: club.pid,
      plan_id: monthly.plan_id,
      customer: customerBody('plan-pending@example.com'),
    });
    // Only pending orders: the plan has no sales, so it may go.
    await t.http.delete(`/v1/plans/${monthly.plan_id}`).set(seller.auth).expect(200);

    await expectCheckoutGone(pending.checkout_url);
    expect(await api.getOrder(pending.order_number)).toMatchObject({ status: 'pending', plan: null });
  });

  it('takes its order bumps (both ways) and its product-limited webhooks with it, nothing else', async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const main = await api.product({ name: 'Main', price: 100 });
    const doomed = await api.product({ name: 'Doomed', price: 50 });
    const extra = await api.product({ name: 'Extra', price: 20 });
    await api.orderBump(main.pid, { product_pid: doomed.pid, price: 10 });
    await api.orderBump(doomed.pid, { product_pid: extra.pid, price: 5 });
    const kept = await api.orderBump(main.pid, { product_pid: extra.pid, price: 7 });
    const limited = await api.webhook({
      url: 'https://hooks.example.com/a',
      events: ['order_approved'],
      product_details: doomed.pid,
    });
    const everyProduct = await api.webhook({ url: 'https://hooks.example.com/b', events: ['order_approved'] });

    await t.http.delete(`/v1/products/${doomed.pid}`).set(seller.auth).expect(200);

    const bumps = await t.http.get(`/v1/products/${main.pid}/order-bumps`).set(seller.auth).expect(200);
    expect(bumps.body.order_bumps.map((b: { id: number }) => b.id)).toEqual([kept.id]);
    const rows = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM order_bumps WHERE product_id = $1 OR bump_product_id = $1',
      [doomed.id],
    );
    expect(rows[0].n).toBe(0);
    // The limited webhook went in the deletion's transaction: gone as soon as it answered, never shown as
    // a webhook of every product (`product: null`).
    await t.http.get(`/v1/webhooks/${limited.id}`).set(seller.auth).expect(404);
    await t.http.get(`/v1/webhooks/${everyProduct.id}`).set(seller.auth).expect(200);
  });
});
