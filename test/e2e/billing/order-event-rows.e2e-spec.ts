import { OrderEventRows } from '../../../src/modules/billing/events/order-event-rows';
import { createSeller } from '../../utils/auth';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createOrder, insertProduct, orderBody } from './fixtures';

/**
 * The rows of order events read together (the receipts of one batch of jobs, outside a
 * transaction; the events of a group of payments, inside one): each order gets its own rows, and
 * an order that no longer exists fails only its own read.
 */
describe('order event rows read together', () => {
  let t: TestApp;
  let rows: OrderEventRows;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_WORKER: 'false' } });
    rows = t.app.get(OrderEventRows);
  });
  afterAll(() => t.close());

  async function orders(n: number): Promise<Array<{ id: number; number: string; storeId: number }>> {
    const seller = await createSeller(t);
    const product = await insertProduct(t, seller.storeId);
    const out = [];
    for (let i = 0; i < n; i++) {
      const { order_number } = await createOrder(t, seller, orderBody(product.pid));
      const [row] = await t.dataSource.query('SELECT id FROM orders WHERE order_number = $1', [order_number]);
      out.push({ id: row.id as number, number: order_number, storeId: seller.storeId });
    }
    return out;
  }

  it('outside a transaction: each order its own rows; an unknown order fails alone', async () => {
    const [a, b] = await orders(2);
    const outcomes = await Promise.allSettled([
      rows.of(t.dataSource.manager, a.id),
      rows.of(t.dataSource.manager, 2_000_000_000),
      rows.of(t.dataSource.manager, b.id),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const [first, missing, second] = outcomes;
    expect((missing as PromiseRejectedResult).reason).toEqual(new Error('Order 2000000000 not found for its event'));
    for (const [outcome, order] of [
      [first, a],
      [second, b],
    ] as const) {
      const set = (outcome as PromiseFulfilledResult<Awaited<ReturnType<OrderEventRows['of']>>>).value;
      expect(set.order.orderNumber).toBe(order.number);
      expect(set.store?.id).toBe(order.storeId);
      expect(set.customer).not.toBeNull();
      expect(set.product).not.toBeNull();
    }
  });

  it('in a transaction: the orders of the transaction read together, each its own', async () => {
    const [a, b] = await orders(2);
    const sets = await t.dataSource.transaction((manager) =>
      Promise.all([rows.of(manager, b.id), rows.of(manager, a.id)]),
    );
    expect(sets.map((s) => s.order.orderNumber)).toEqual([b.number, a.number]);
    expect(sets.map((s) => s.store?.id)).toEqual([a.storeId, a.storeId]);
  });
});
