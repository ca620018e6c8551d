import { EventEmitter2 } from '@nestjs/event-emitter';
import { ORDER_EVENT_NAMES } from '../../../src/modules/billing/events/order-events';
import { checkoutOf, customerBody, sellerApi } from '../../factories/api';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The catalog lets a seller delete a product that has no sales (decisions §7), even when abandoned
 * checkouts of it exist; billing keeps those orders readable and their checkout closed.
 */
describe('orders of a deleted product', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('stay listed with product null; their checkout answers 404 and changes nothing', async () => {
    const seller = await createSeller(t);
    const api = sellerApi(t.http, seller.auth);
    const kept = await api.product({ name: 'Kept', price: 100 });
    const doomed = await api.product({ name: 'Doomed', price: 50 });
    const pending = await api.order({ amount: 50, product_pid: doomed.pid, customer: customerBody('pending@example.com') });
    const cancelled = await api.order({ amount: 50, product_pid: doomed.pid, customer: customerBody('cancelled@example.com') });
    expect(await checkoutOf(t.http, cancelled).cancel()).toBe('cancelled');
    const other = await api.order({ amount: 100, product_pid: kept.pid, customer: customerBody('kept@example.com') });

    await t.http.delete(`/v1/products/${doomed.pid}`).set(seller.auth).expect(200);

    const list = await t.http.get('/v1/orders').set(seller.auth).expect(200);
    expect(list.body.orders.map((o: { order_number: string }) => o.order_number)).toEqual([other.order_number, cancelled.order_number, pending.order_number]);
    expect(list.body.orders.map((o: { product: unknown }) => o.product)).toEqual([expect.objectContaining({ pid: kept.pid }), null, null]);
    expect(await api.getOrder(pending.order_number)).toMatchObject({ status: 'pending', product: null, amount: 50 });

    const events: unknown[] = [];
    const emitter = t.app.get(EventEmitter2);
    for (const name of Object.values(ORDER_EVENT_NAMES)) emitter.on(name, (e: unknown) => void events.push(e));
    const path = new URL(pending.checkout_url).pathname;
    await t.http.get(path).expect(404);
    for (const route of ['pay', 'cancel']) {
      const res = await t.http.post(`${path}/${route}`).set('Accept', 'application/json').send({ payment_method: 'mpesa', payment_number: '841234567' });
      expect({ route, status: res.status, body: res.body }).toEqual({ route, status: 404, body: { status: 'error', message: 'Resource not found.' } });
    }
    expect(events).toEqual([]);
    expect((await api.getOrder(pending.order_number)).status).toBe('pending');
    // The other product's checkout is untouched.
    expect(await checkoutOf(t.http, other).pay({ payment_number: '841234567' })).toBe('approved');
  });
});
